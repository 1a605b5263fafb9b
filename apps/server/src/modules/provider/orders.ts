import {
  type LockSeatsBody,
  MAX_SEATS,
  MOVIE_MSG,
  MOVIE_SOURCE,
  maskPhone,
  PROVIDER_STATUS,
  type ProviderSubmitResult,
  TOPUP_AMOUNTS,
  TOPUP_SOURCE,
  type TopupBody,
} from '@sitemall/contract';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { sourceOf } from '../catalog/catalog.service';
import { createProviderOrder, type ProviderOrderMade } from '../order/provider-goods';
import { orderOfRequestKey } from '../order/submit';
import { ProviderRefusal, ProviderUnavailable, type SeatLock } from './adapters';
import { type ProviderDeps, providerOrdersOf } from './provider.service';
import { type ProviderPayload, providerOrder } from './provider.tables';

/**
 * Ordering provider goods: seats locked at the provider before the order exists (its expiry
 * never outlives the lock), and top-ups. The order and its provider row are written in one
 * transaction; a request key seen before answers the order it made.
 */

/** Paid at least this long before the provider's lock ends, or not at all. */
const LOCK_MARGIN_MS = 60_000;

/** The adapter's failures as the member reads them; anything else is a bug and stays one. */
export async function fromProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderRefusal) throw failure(error.message);
    if (error instanceof ProviderUnavailable) throw failure(MOVIE_MSG.providerDown);
    throw error;
  }
}

export function parseSeatIds(input: LockSeatsBody['seatIds']): string[] {
  const ids = (Array.isArray(input) ? input : input.split(',')).map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw failure(MOVIE_MSG.noSeats);
  if (ids.length > MAX_SEATS) throw failure(MOVIE_MSG.tooManySeats);
  if (new Set(ids).size !== ids.length) throw failure(MOVIE_MSG.noSeats);
  return ids;
}

async function earlierAnswer(ctx: MemberCtx, requestKey?: string): Promise<ProviderSubmitResult | undefined> {
  if (!requestKey) return undefined;
  const order = await orderOfRequestKey(ctx, requestKey);
  if (!order) return undefined;
  const [row] = await providerOrdersOf(ctx, order.id);
  return {
    orderNo: order.orderNo,
    childOrderNo: row ? [row.childOrderNo] : [],
    payAmount: order.payAmount,
    status: order.status,
    expireTime: order.expireAt.toISOString(),
    ...(row?.lockExpiresAt ? { lockExpireTime: row.lockExpiresAt.toISOString() } : {}),
    msg: MOVIE_MSG.locked,
  };
}

interface NewProviderOrder {
  kind: 'movie' | 'topup';
  provider: string;
  status: 'locked' | 'pending';
  order: Parameters<typeof createProviderOrder>[2];
  payload: ProviderPayload;
  lock?: SeatLock;
}

/** The order and its provider row in one transaction; a parallel twin of the request key answers the first. */
async function placeOrder(ctx: MemberCtx, input: NewProviderOrder): Promise<ProviderOrderMade> {
  return ctx.db.transaction(async (tx) => {
    const made = await createProviderOrder(tx, ctx, input.order);
    await tx.insert(providerOrder).values({
      siteId: ctx.site.row.id,
      memberId: ctx.member.id,
      orderId: made.orderId,
      orderNo: made.orderNo,
      childOrderNo: made.childOrderNo,
      kind: input.kind,
      provider: input.provider,
      providerReqId: `${input.kind === 'movie' ? 'M' : 'T'}${made.childOrderNo}`,
      status: input.status,
      payload: input.payload,
      lockId: input.lock?.lockId ?? null,
      lockExpiresAt: input.lock ? new Date(input.lock.expiresAt) : null,
    });
    return made;
  });
}

const resultOf = (made: ProviderOrderMade, msg: string, lock?: SeatLock): ProviderSubmitResult => ({
  orderNo: made.orderNo,
  childOrderNo: [made.childOrderNo],
  payAmount: made.payAmount,
  status: 0,
  expireTime: made.expireAt.toISOString(),
  ...(lock ? { lockExpireTime: lock.expiresAt } : {}),
  msg,
});

/**
 * Locks the seats at the provider, then makes the order: its price is the provider's, its
 * expiry the site's order time or the lock's end less a margin, whichever comes first. If the
 * order cannot be written, the seats are released at once.
 */
export async function lockSeats(
  ctx: MemberCtx,
  deps: ProviderDeps,
  body: LockSeatsBody,
  expireMinutes: number,
): Promise<ProviderSubmitResult> {
  const earlier = await earlierAnswer(ctx, body.requestId);
  if (earlier) return earlier;
  const seatIds = parseSeatIds(body.seatIds);
  const lock = await fromProvider(() => deps.cinema.lock({ showId: body.showId, seatIds }));
  const expireAt = new Date(
    Math.min(Date.now() + expireMinutes * 60_000, new Date(lock.expiresAt).getTime() - LOCK_MARGIN_MS),
  );
  try {
    const made = await placeOrder(ctx, {
      kind: 'movie',
      provider: 'cinema',
      status: PROVIDER_STATUS.locked,
      lock,
      payload: {
        showId: body.showId,
        seatIds,
        seatNames: lock.seatNames,
        filmName: lock.filmName,
        cinemaName: lock.cinemaName,
        hall: lock.hall,
        startTime: lock.startTime,
      },
      order: {
        source: MOVIE_SOURCE,
        sourceName: sourceOf(ctx.site, MOVIE_SOURCE, 1).name,
        line: {
          name: `${lock.filmName} ${lock.cinemaName}`,
          image: '',
          specificationValue: `${lock.hall} ${lock.seatNames.join('、')}`,
          price: lock.price,
          num: seatIds.length,
        },
        expireAt,
        ...(body.requestId ? { requestKey: body.requestId } : {}),
      },
    });
    return resultOf(made, MOVIE_MSG.locked, lock);
  } catch (error) {
    await deps.cinema.release(lock.lockId).catch(() => undefined);
    if (body.requestId && isUniqueViolation(error)) {
      const twin = await earlierAnswer(ctx, body.requestId);
      if (twin) return twin;
    }
    throw error;
  }
}

export const PHONE = /^1\d{10}$/;

/** A direct top-up order (phone, face value in yuan); the provider is asked after payment. */
export async function submitTopup(
  ctx: MemberCtx,
  body: TopupBody,
  expireMinutes: number,
): Promise<ProviderSubmitResult> {
  if (!PHONE.test(body.phone)) throw failure(MOVIE_MSG.badPhone);
  if (!(TOPUP_AMOUNTS as readonly number[]).includes(body.amount)) throw failure(MOVIE_MSG.badAmount);
  const earlier = await earlierAnswer(ctx, body.requestId);
  if (earlier) return { ...earlier, msg: MOVIE_MSG.topupSubmitted };
  try {
    const made = await placeOrder(ctx, {
      kind: 'topup',
      provider: 'topup',
      status: PROVIDER_STATUS.pending,
      payload: { phone: body.phone, faceValue: body.amount },
      order: {
        source: TOPUP_SOURCE,
        sourceName: sourceOf(ctx.site, TOPUP_SOURCE, 1).name,
        line: {
          name: `话费直充 ${body.amount} 元`,
          image: '',
          specificationValue: maskPhone(body.phone),
          price: body.amount * 100,
          num: 1,
        },
        expireAt: new Date(Date.now() + expireMinutes * 60_000),
        ...(body.requestId ? { requestKey: body.requestId } : {}),
      },
    });
    return resultOf(made, MOVIE_MSG.topupSubmitted);
  } catch (error) {
    if (body.requestId && isUniqueViolation(error)) {
      const twin = await earlierAnswer(ctx, body.requestId);
      if (twin) return { ...twin, msg: MOVIE_MSG.topupSubmitted };
    }
    throw error;
  }
}
