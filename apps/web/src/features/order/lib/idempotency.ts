/**
 * The idempotency key of an order submission (contract SubmitOrderBody.requestId): made once
 * per visit of the submission page, so a double click or a retry after a lost answer makes one
 * order. A new visit (or a change of what is being bought) makes a new key.
 */
export function newRequestId(random: () => string = defaultRandom): string {
  return `o-${random()}`;
}

function defaultRandom(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID().replaceAll('-', '');
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 14)}`;
}

/**
 * Keys per page visit: `keyFor(basis)` answers the same key while the basis (what is being
 * bought, where to) stays the same, and a fresh key when it changes.
 */
export function createRequestIdHolder(make: () => string = newRequestId) {
  let basis: string | null = null;
  let key = '';
  return {
    keyFor(next: string): string {
      if (next !== basis) {
        basis = next;
        key = make();
      }
      return key;
    },
  };
}
