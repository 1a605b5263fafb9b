/** Money is an integer of minor units (fen), shown with two decimals and the site's cashUnit (section 9). */
export function formatMoney(fen: number, cashUnit: string): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${yuan}.${cents}${cashUnit}`;
}
