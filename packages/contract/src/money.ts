/** Thousands grouped with commas, as JD and Tmall show prices: 1234567 → 1,234,567. */
const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The one fen → yuan formatter (server messages, CSV reports, the pay page, the storefront).
 * Money is an integer of fen; the text is built from integer parts, so no float rounding shows:
 * 123456 → "1234.56", grouped "1,234.56"; -150 → "-1.50".
 */
export function fenToYuan(fen: number, options: { grouped?: boolean } = {}): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const whole = String(Math.floor(abs / 100));
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${options.grouped ? groupThousands(whole) : whole}.${cents}`;
}

/**
 * Money as the storefront shows it (spec section 9): two decimals, thousands grouped, then the
 * site's cashUnit (none where the unit is printed apart): 1000000, '积分' → "10,000.00积分".
 */
export function formatMoney(fen: number, cashUnit = ''): string {
  return `${fenToYuan(fen, { grouped: true })}${cashUnit}`;
}
