import type { TestApp } from '../../test/harness';
import { issueCards } from './packs.service';

/** Test helpers of gift cards (real database). */

/**
 * Cards of a pack product (one unless told), issued by one operator and approved by another (the
 * service refuses one operator doing both).
 */
export async function issuedCards(
  t: TestApp,
  input: { siteId: number; productId: number; quantity?: number },
) {
  const { cards } = await issueCards(t.db, t.secrets.partnerKey, {
    siteId: input.siteId,
    productId: input.productId,
    quantity: input.quantity ?? 1,
    issuedBy: 'op-a',
    approvedBy: 'op-b',
  });
  return cards;
}
