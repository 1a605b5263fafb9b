import { DEFAULT_ORDER_EXPIRE_MINUTES, MOVIE_MSG, movieApi, ORDER_MSG, topupApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { memberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import { findOrder } from '../order/order.service';
import { payOrder } from '../order/pay';
import type { WechatPay } from '../payment/wechat-pay';
import { fromProvider, lockSeats, submitTopup } from './orders';
import { type ProviderDeps, providerOrdersOf } from './provider.service';

/** Cinema tickets and direct top-up (issue 15): the provider's catalogue, ordering and paying. */
export const providerRoutes: FastifyPluginAsync<{
  deps: ProviderDeps;
  wechat: WechatPay;
  orderExpireMinutes?: number;
  /** Asks the issue worker to run now (a paid order need not wait for its next pass). */
  kick: () => void;
}> = async (app, opts) => {
  const { cinema } = opts.deps;
  const expireMinutes = opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES;

  serve(app, movieApi.cities, async (req) => {
    siteOf(req.ctx);
    return ok(await fromProvider(() => cinema.cities()));
  });
  serve(app, movieApi.films, async (req) => ok(await fromProvider(() => cinema.films(req.body.cityId))));
  serve(app, movieApi.cinemas, async (req) =>
    ok(await fromProvider(() => cinema.cinemas(req.body.cityId, req.body.filmId))),
  );
  serve(app, movieApi.shows, async (req) =>
    ok(await fromProvider(() => cinema.shows(req.body.cinemaId, req.body.filmId))),
  );
  serve(app, movieApi.seats, async (req) => ok(await fromProvider(() => cinema.seats(req.body.showId))));

  serve(app, movieApi.lockSeats, async (req) => {
    const result = await lockSeats(memberCtx(req.ctx), opts.deps, req.body, expireMinutes);
    return ok(result, result.msg);
  });

  serve(app, movieApi.pay, async (req) => {
    const ctx = memberCtx(req.ctx);
    const order = await findOrder(ctx, req.body.orderNo);
    const rows = await providerOrdersOf(ctx, order.id);
    if (!rows.some((r) => r.kind === 'movie')) throw failure(MOVIE_MSG.notMovieOrder);
    const { result, hasPaidNow } = await payOrder(ctx, req.body, opts.wechat);
    if (hasPaidNow) opts.kick();
    if (result.wechat && !result.isPaid) return ok(result, ORDER_MSG.scanToPay);
    return ok(result, hasPaidNow ? ORDER_MSG.paid : ORDER_MSG.alreadyPaid);
  });

  serve(app, movieApi.auth, async (req) => {
    const ctx = memberCtx(req.ctx);
    // The provider learns an opaque member reference, never the phone number.
    const auth = await fromProvider(() => cinema.auth(`${ctx.site.row.id}:${ctx.member.id}`));
    return ok({ authUrl: auth.authUrl, expireTime: auth.expiresAt });
  });

  serve(app, topupApi.submit, async (req) => {
    const result = await submitTopup(memberCtx(req.ctx), req.body, expireMinutes);
    return ok(result, result.msg);
  });
};
