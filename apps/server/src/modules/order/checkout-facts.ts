import { ADDRESS_MSG, type Address, ORDER_MSG } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { failure } from '../../lib/errors';
import { deliveryAddressSql } from '../address/address.service';
import { approvalRuleSql, type RuleFacts } from '../approval/approval.service';
import type { MemberCtx } from '../cart/cart.service';
import { type SpecificationOnSite, specificationsOnSiteWith } from '../catalog/products';
import { type MemberPricing, type PricingLevel, pricingLevelSql, pricingOf } from '../vip/vip.service';

const ph = sql.placeholder;

/** What a checkout needs to know of its member and site beyond the goods. */
export interface CheckoutFacts {
  /** How the member's level prices goods, and the level (approval rules may name it). */
  pricing: MemberPricing;
  /** The address the member named, or with none named the default; null when there is none. */
  address: Address | null;
  /** The site's approval rule; null when it has none. */
  rule: RuleFacts | null;
}

/**
 * A checkout's specifications on the site and, in the same statement, the member's level, the
 * delivery address and the site's approval rule: one round trip, each module giving its read
 * as a subquery. A submission made them four round trips, each costing the server and
 * PostgreSQL a socket write and read that cost more than the reads (docs/performance.md).
 * When no specification is on the site the facts are those of nobody (no level, no address,
 * no rule): the checkout is refused for its goods before they matter.
 */
export async function readCheckout(
  ctx: MemberCtx,
  specificationIds: readonly number[],
  addressId?: number,
): Promise<{ specs: Map<number, SpecificationOnSite>; facts: CheckoutFacts }> {
  const [siteId, memberId] = [ph('siteId'), ph('memberId')];
  const { specs, also } = await specificationsOnSiteWith<{
    level: PricingLevel;
    address: Address | null;
    rule: RuleFacts | null;
  }>(ctx, ctx.site.row.id, specificationIds, {
    name: 'checkout',
    columns: {
      level: pricingLevelSql(siteId, memberId, ph('now')),
      address: deliveryAddressSql(siteId, memberId, ph('addressId')),
      rule: approvalRuleSql(siteId),
    },
    params: { memberId: ctx.member.id, now: new Date().toISOString(), addressId: addressId || null },
  });
  return {
    specs,
    facts: {
      pricing: pricingOf(also?.level ?? null),
      address: also?.address ?? null,
      rule: also?.rule ?? null,
    },
  };
}

/**
 * The address an order goes to: the one the member named (another member's id is not found),
 * else the default; an order of goods delivered by address cannot go without one.
 */
export function deliveryAddressOf(facts: CheckoutFacts, addressId?: number): Address {
  if (facts.address) return facts.address;
  throw failure(addressId ? ADDRESS_MSG.notFound : ORDER_MSG.addressRequired);
}
