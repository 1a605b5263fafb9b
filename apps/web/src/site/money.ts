/** Thousands grouped with commas, as JD and Tmall show prices: 1234567 → 1,234,567. */
const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Fen as yuan with two decimals and thousands separators, no unit: 1000000 → 10,000.00. */
export function fenText(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${groupThousands(String(Math.floor(abs / 100)))}.${cents}`;
}

/** Money is an integer of minor units (fen), shown with two decimals and the site's cashUnit (section 9). */
export function formatMoney(fen: number, cashUnit: string): string {
  return `${fenText(fen)}${cashUnit}`;
}
