/**
 * A mobile number as a bank mall shows it: the middle four digits hidden (138****0719).
 * Anything that is not an 11-digit mobile number is returned unchanged.
 */
export function maskPhone(phone: string): string {
  return /^1\d{10}$/.test(phone) ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

/** Chinese area codes of three digits (the rest have four): 010 and 020-029. */
const SHORT_AREA_CODE = /^0(10|2\d)/;

/**
 * A hotline grouped the way it is read aloud: 4008001000 → 400-800-1000, 13800000719 →
 * 138-0000-0719, 01062345678 → 010-62345678, 057188886666 → 0571-88886666. A value that
 * already has separators, or is not digits, is shown as the site wrote it.
 */
export function formatHotline(hotline: string): string {
  const value = hotline.trim();
  if (!/^\d+$/.test(value)) return value;
  if (/^[48]00\d{7}$/.test(value)) return `${value.slice(0, 3)}-${value.slice(3, 6)}-${value.slice(6)}`;
  if (/^1\d{10}$/.test(value)) return `${value.slice(0, 3)}-${value.slice(3, 7)}-${value.slice(7)}`;
  if (/^0\d{9,11}$/.test(value)) {
    const area = SHORT_AREA_CODE.test(value) ? 3 : 4;
    return `${value.slice(0, area)}-${value.slice(area)}`;
  }
  return value;
}
