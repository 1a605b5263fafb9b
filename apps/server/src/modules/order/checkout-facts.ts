import { ADDRESS_MSG, type Address, ORDER_MSG } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { failure } from '../../lib/errors';
import { preparedSql } from '../../lib/prepared';
import { deliveryAddressSql } from '../address/address.service';
import { approvalRuleSql, type RuleFacts } from '../approval/approval.service';
import type { MemberCtx } from '../cart/cart.service';
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
 * The member's level, delivery address and the site's approval rule, read in one round trip:
 * each module gives its read as a scalar subquery of one statement. A submission made them
 * three round trips, each costing the server and PostgreSQL a socket write and read that cost
 * more than the reads (docs/performance.md).
 */
export async function checkoutFacts(ctx: MemberCtx, addressId?: number): Promise<CheckoutFacts> {
  const { rows } = await preparedSql(ctx.db, 'order_checkout_facts', () => {
    const [siteId, memberId] = [ph('siteId'), ph('memberId')];
    return sql`select ${pricingLevelSql(siteId, memberId, ph('now'))} as level,
      ${deliveryAddressSql(siteId, memberId, ph('addressId'))} as address,
      ${approvalRuleSql(siteId)} as rule`;
  }).execute({
    siteId: ctx.site.row.id,
    memberId: ctx.member.id,
    now: new Date().toISOString(),
    addressId: addressId || null,
  });
  const row = rows[0] as { level: PricingLevel; address: Address | null; rule: RuleFacts | null };
  return { pricing: pricingOf(row.level), address: row.address, rule: row.rule };
}

/**
 * The address an order goes to: the one the member named (another member's id is not found),
 * else the default; an order of goods delivered by address cannot go without one.
 */
export function deliveryAddressOf(facts: CheckoutFacts, addressId?: number): Address {
  if (facts.address) return facts.address;
  throw failure(addressId ? ADDRESS_MSG.notFound : ORDER_MSG.addressRequired);
}
