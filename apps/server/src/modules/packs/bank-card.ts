/**
 * packsApi.unionBankCardNo (inference, design section 2: bank-issued cards are named by the
 * bank card number): checks a bank card number as typed — 16 to 19 digits with a valid Luhn
 * check digit — and answers it masked; UnionPay numbers start with 62. Nothing is stored.
 */

/** The Luhn (mod 10) check every bank card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function checkBankCardNo(typed: string): {
  valid: boolean;
  cardNoMasked: string;
  isUnionPay: boolean;
} {
  const digits = typed.replace(/[\s-]/g, '');
  if (!/^\d{16,19}$/.test(digits)) return { valid: false, cardNoMasked: '', isUnionPay: false };
  return {
    valid: luhnValid(digits),
    cardNoMasked: `${digits.slice(0, 4)} **** **** ${digits.slice(-4)}`,
    isUnionPay: digits.startsWith('62'),
  };
}
