import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  orderApi as api,
  DEFAULT_ORDER_EXPIRE_MINUTES,
  ORDER_MSG,
  SOURCE_TYPES,
  XLSX_TYPE,
} from '@sitemall/contract';
import { chinaTime } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import type { RedisSeckillGate } from '../activity/seckill-redis';
import { memberCtx } from '../cart/cart.service';
import { siteOf, sourceOf } from '../catalog/catalog.service';
import type { WechatPay } from '../payment/wechat-pay';
import { exportOrderList } from './export';
import { freightRules } from './freight';
import {
  cancelOrder,
  confirmOrder,
  myOrderList,
  orderCount,
  orderDetail,
  trackDetail,
} from './order.service';
import { confirmPay, payOrder, payOrderInfo, payResultQuery } from './pay';
import { computeFare, submitOrder } from './submit';

/** Orders, freight and points payment (spec sections 4, 7). */
export const orderRoutes: FastifyPluginAsyncTypebox<{
  orderExpireMinutes?: number;
  wechat: WechatPay;
  seckillGate?: RedisSeckillGate;
}> = async (app, opts) => {
  const expireMinutes = opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES;

  serve(app, api.submitOrder, async (req) => {
    const header = req.headers['idempotency-key'];
    const result = await submitOrder(memberCtx(req.ctx), req.body, {
      idempotencyKey: Array.isArray(header) ? header[0] : header,
      expireMinutes,
      seckillGate: opts.seckillGate,
    });
    return ok(result, ORDER_MSG.submitted);
  });

  serve(app, api.getFare, async (req) => ok(await computeFare(memberCtx(req.ctx), req.body)));
  serve(app, api.totalFare, async (req) =>
    ok({ totalFare: (await computeFare(memberCtx(req.ctx), req.body)).totalFare }),
  );
  serve(app, api.freightList, async (req) => {
    const site = siteOf(req.ctx);
    const seen = new Set<number>();
    const sources = SOURCE_TYPES.filter((s) => !seen.has(s.source) && seen.add(s.source)).map((s) => {
      const named = sourceOf(site, s.source, 1);
      return { source: s.source, sourceName: named.name, hasAddress: named.hasAddressTab };
    });
    return ok({ list: freightRules(sources) });
  });

  serve(app, api.payOrder, async (req) => {
    const { result, hasPaidNow } = await payOrder(memberCtx(req.ctx), req.body, opts.wechat);
    if (result.wechat && !result.isPaid) return ok(result, ORDER_MSG.scanToPay);
    return ok(result, hasPaidNow ? ORDER_MSG.paid : ORDER_MSG.alreadyPaid);
  });
  serve(app, api.payOrderInfo, async (req) =>
    ok(await payOrderInfo(memberCtx(req.ctx), req.body.orderNo, opts.wechat)),
  );
  serve(app, api.confirmPay, async (req) => ok(await confirmPay(memberCtx(req.ctx), req.body.orderNo)));
  serve(app, api.payResultQuery, async (req) =>
    ok(await payResultQuery(memberCtx(req.ctx), req.body.orderNo, opts.wechat)),
  );

  serve(app, api.myOrderList, async (req) => ok(await myOrderList(memberCtx(req.ctx), req.body)));
  serve(app, api.orderCount, async (req) => ok(await orderCount(memberCtx(req.ctx))));
  serve(app, api.orderDetail, async (req) => ok(await orderDetail(memberCtx(req.ctx), req.body.orderNo)));
  serve(app, api.cancelOrder, async (req) =>
    ok(
      await cancelOrder(memberCtx(req.ctx), opts.wechat, req.body.orderNo, req.body.reason),
      ORDER_MSG.cancelled,
    ),
  );
  serve(app, api.confirmOrder, async (req) =>
    ok(await confirmOrder(memberCtx(req.ctx), req.body.orderNo), ORDER_MSG.confirmed),
  );
  // A file; a failure before it still answers the envelope.
  serve(app, api.exportOrderList, async (req, reply) => {
    const file = await exportOrderList(memberCtx(req.ctx), req.body);
    const day = chinaTime(new Date(), 'YYYYMMDD');
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="orders-${day}.xlsx"`)
      .send(file);
  });
  serve(app, api.trackDetail, async (req) => ok(await trackDetail(memberCtx(req.ctx), req.body.orderNo)));
};
