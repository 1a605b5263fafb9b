import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { SiteId } from './site.ts';

/**
 * VIP levels and member prices (issue 13; design promotions.md section 6). A site's levels each
 * take a percent off the list price; a member's level is set by the operator, by rules or by the
 * partner at login, optionally until a date. The saving is frozen on each order line.
 */

export const VipLevel = Type.Object({
  id: Type.Integer(),
  rank: Type.Integer(),
  name: Type.String(),
  /** Percent off the list price (5 = pays 95 %). */
  discountPct: Type.Integer(),
});
export type VipLevel = Static<typeof VipLevel>;

export const MemberVip = Type.Object({
  /** The member's level now; null without one (or after it ended). */
  level: Type.Union([VipLevel, Type.Null()]),
  source: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Every level of the site, lowest first. */
  levels: Type.Array(VipLevel),
});
export type MemberVip = Static<typeof MemberVip>;

export const VipTotalDiscount = Type.Object({
  /** Fen saved by member prices over paid lines of orders not refunded. */
  totalDiscount: Type.Integer(),
});
export type VipTotalDiscount = Static<typeof VipTotalDiscount>;

const member = { site: 'required', auth: 'required', tag: 'vip' } as const;

export const vipApi = {
  level: endpoint({
    ...member,
    method: 'POST',
    path: '/api/vip/level',
    summary: '会员等级',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(MemberVip),
  }),
  totalDiscount: endpoint({
    ...member,
    method: 'POST',
    path: '/api/vip/totalDiscount',
    summary: '会员价累计优惠',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(VipTotalDiscount),
  }),
};

/**
 * The member-price step of the price pipeline (design promotions.md section 6): list price →
 * the better of the member price and a time-limited discount price (or both, where the site
 * stacks them: percentages multiply, never both off the list price). Integer fen per piece.
 * Server pricing and the storefront's shown member price use this one rule.
 */
export function memberUnitPrice(
  list: number,
  discountPct: number,
  options: { discountPrice?: number | null; stack?: boolean } = {},
): number {
  const off = (price: number) => price - Math.floor((price * discountPct) / 100);
  const discount = options.discountPrice ?? null;
  if (discount === null || discount >= list) return off(list);
  return options.stack ? off(discount) : Math.min(off(list), discount);
}
