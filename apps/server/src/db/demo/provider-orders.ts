import { ORDER_MSG } from '@sitemall/contract';
import type { MemberCtx } from '../../modules/cart/cart.service';
import { payOrder } from '../../modules/order/pay';
import type { WechatPay } from '../../modules/payment/wechat-pay';
import { lockSeats, submitTopup } from '../../modules/provider/orders';
import type { ProviderDeps } from '../../modules/provider/provider.service';
import { importCodes } from '../../modules/provider/provider-admin';
import type { ProviderSimulator } from '../../simulators/provider';
import type { Db } from '../client';
import { type DemoMember, seedDemoMember } from './members';

/**
 * What the console's provider screens start with on a fresh demo start (issue 15): on site 719 a
 * cinema ticket and a top-up issued, a top-up the provider refused (failed, refunded), and a
 * small stock of e-codes, sealed. Everything goes through the real services against the
 * running provider simulator (the adapters speak HTTP to it, so this runs once the server
 * listens), so the orders, the points ledger and the provider's statement agree: the books
 * check says 账务全部相符 on demo data.
 *
 * The orders belong to a member of their own (not the 719 demo member, whose opening balance
 * and order list the storefront's journeys read).
 */

export const PROVIDER_DEMO_SITE = 719;
export const PROVIDER_DEMO_MEMBER = {
  siteId: PROVIDER_DEMO_SITE,
  phone: '13800000720',
  username: null,
  password: 'Demo0720',
  points: 200_000,
} as const satisfies DemoMember;
/** The e-code specification the demo stock is loaded for (the e-code screens' example). */
export const PROVIDER_DEMO_CODE_SPEC = 880100;
const DEMO_CODES = Array.from({ length: 5 }, (_, i) => `DEMO-ECODE-${String(i + 1).padStart(4, '0')}`);

export interface ProviderDemoDeps {
  db: Db;
  /** The site of the demo orders (the server's site cache). */
  site: MemberCtx['site'];
  providers: { deps: ProviderDeps; work: () => Promise<unknown>; simulator?: ProviderSimulator };
  wechat: WechatPay;
  orderExpireMinutes: number;
}

/** What the demo made, for its test and the start-up log. */
export interface ProviderDemo {
  ticket: string;
  topup: string;
  refused: string;
  codes: number;
}

async function payWithPoints(ctx: MemberCtx, orderNo: string, wechat: WechatPay): Promise<void> {
  const { hasPaidNow } = await payOrder(ctx, { orderNo, payWay: 'ye' }, wechat);
  if (!hasPaidNow) throw new Error(`demo provider order ${orderNo}: ${ORDER_MSG.alreadyPaid}`);
}

/** The first show of the provider's first city and film with two free seats side by side. */
async function twoFreeSeats(cinema: ProviderDeps['cinema']) {
  const [city] = await cinema.cities();
  if (!city) throw new Error('the provider lists no city');
  for (const film of await cinema.films(city.cityId))
    for (const place of await cinema.cinemas(city.cityId, film.filmId))
      for (const show of await cinema.shows(place.cinemaId, film.filmId)) {
        const free = (await cinema.seats(show.showId)).seats.filter((s) => s.status === 'available');
        const pair = free.find((s) => free.some((t) => t.row === s.row && t.col === s.col + 1));
        if (pair) return { showId: show.showId, seatIds: [pair.seatId, `${pair.row}-${pair.col + 1}`] };
      }
  throw new Error('the provider has no show with two free seats');
}

/** Seeds the demo provider orders once (the caller knows the database was just seeded). */
export async function seedProviderOrders(deps: ProviderDemoDeps): Promise<ProviderDemo> {
  const { db, providers, wechat, orderExpireMinutes } = deps;
  const demo = PROVIDER_DEMO_MEMBER;
  const member = await seedDemoMember(db, demo);
  const ctx: MemberCtx = { db, site: deps.site, member };

  // A cinema ticket: seats locked at the provider, paid with points, issued by the worker.
  const seats = await twoFreeSeats(providers.deps.cinema);
  const ticket = await lockSeats(ctx, providers.deps, { siteId: demo.siteId, ...seats }, orderExpireMinutes);
  await payWithPoints(ctx, ticket.orderNo, wechat);
  // A top-up issued the same way.
  const topup = await submitTopup(
    ctx,
    { siteId: demo.siteId, phone: '13900000720', amount: 30 },
    orderExpireMinutes,
  );
  await payWithPoints(ctx, topup.orderNo, wechat);
  await providers.work();
  // A top-up the carrier refuses: the order fails and its points come back (24 → 51).
  const refused = await submitTopup(
    ctx,
    { siteId: demo.siteId, phone: '13900000721', amount: 50 },
    orderExpireMinutes,
  );
  providers.simulator?.fail('topup', 'refuse');
  await payWithPoints(ctx, refused.orderNo, wechat);
  await providers.work();

  const { added } = await importCodes(db, providers.deps.codesKey, {
    siteId: PROVIDER_DEMO_SITE,
    specificationId: PROVIDER_DEMO_CODE_SPEC,
    codes: DEMO_CODES,
    batch: 'demo',
  });
  return { ticket: ticket.orderNo, topup: topup.orderNo, refused: refused.orderNo, codes: added };
}
