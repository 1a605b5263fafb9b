import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CancelOrderBody,
  DEFAULT_ORDER_EXPIRE_MINUTES,
  FareBody,
  FareReply,
  FreightListBody,
  FreightListReply,
  MyOrderListBody,
  ORDER_MSG,
  OrderCountBody,
  OrderCountReply,
  OrderDetailReply,
  OrderNoBody,
  OrderPageReply,
  OrderStateReply,
  PayOrderBody,
  PayOrderInfoReply,
  PayResultReply,
  SOURCE_TYPES,
  SubmitOrderBody,
  SubmitOrderReply,
  TotalFareReply,
  TrackDetailReply,
} from '@sitemall/contract';
import { chinaTime } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { memberCtx } from '../cart/cart.service';
import { siteOf, sourceOf } from '../catalog/catalog.service';
import type { WechatPay } from '../payment/wechat-pay';
import { exportOrderList } from './export';
import { freightRules } from './freight';
import {
  cancelOrder,
  confirmOrder,
  findOrder,
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
}> = async (app, opts) => {
  const tags = ['order'];
  const config = { auth: 'required' as const, site: 'required' as const };
  const expireMinutes = opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES;

  app.post(
    '/api/client/submitOrder',
    {
      config,
      schema: {
        tags,
        summary: '提交订单（购物车或立即购买）',
        body: SubmitOrderBody,
        response: { 200: SubmitOrderReply },
      },
    },
    async (req) => {
      const header = req.headers['idempotency-key'];
      const result = await submitOrder(memberCtx(req.ctx), req.body, {
        idempotencyKey: Array.isArray(header) ? header[0] : header,
        expireMinutes,
      });
      return ok(result, ORDER_MSG.submitted);
    },
  );

  app.post(
    '/api/fare/getFare',
    { config, schema: { tags, summary: '运费（按来源）', body: FareBody, response: { 200: FareReply } } },
    async (req) => ok(await computeFare(memberCtx(req.ctx), req.body)),
  );
  app.post(
    '/api/fare/totalFare',
    { config, schema: { tags, summary: '运费合计', body: FareBody, response: { 200: TotalFareReply } } },
    async (req) => ok({ totalFare: (await computeFare(memberCtx(req.ctx), req.body)).totalFare }),
  );
  app.post(
    '/api/fare/freightList',
    {
      config: { site: 'required' },
      schema: { tags, summary: '运费规则', body: FreightListBody, response: { 200: FreightListReply } },
    },
    async (req) => {
      const site = siteOf(req.ctx);
      const seen = new Set<number>();
      const sources = SOURCE_TYPES.filter((s) => !seen.has(s.source) && seen.add(s.source)).map((s) => {
        const named = sourceOf(site, s.source, 1);
        return { source: s.source, sourceName: named.name, hasAddress: named.hasAddressTab };
      });
      return ok({ list: freightRules(sources) });
    },
  );

  app.post(
    '/api/pay/payOrder',
    {
      config,
      schema: {
        tags,
        summary: '支付订单（ye 积分支付；wx_pc 返回微信 Native 二维码）',
        body: PayOrderBody,
        response: { 200: PayResultReply },
      },
    },
    async (req) => {
      const { result, hasPaidNow } = await payOrder(memberCtx(req.ctx), req.body, opts.wechat);
      if (result.wechat && !result.isPaid) return ok(result, ORDER_MSG.scanToPay);
      return ok(result, hasPaidNow ? ORDER_MSG.paid : ORDER_MSG.alreadyPaid);
    },
  );
  app.post(
    '/api/pay/payOrderInfo',
    {
      config,
      schema: {
        tags,
        summary: '待支付订单（收银台）',
        body: OrderNoBody,
        response: { 200: PayOrderInfoReply },
      },
    },
    async (req) => ok(await payOrderInfo(memberCtx(req.ctx), req.body.orderNo, opts.wechat)),
  );
  app.post(
    '/api/pay/confirmPay',
    {
      config,
      schema: { tags, summary: '确认支付结果', body: OrderNoBody, response: { 200: PayResultReply } },
    },
    async (req) => ok(await confirmPay(memberCtx(req.ctx), req.body.orderNo)),
  );
  app.post(
    '/api/pay/payResultQuery',
    {
      config,
      schema: {
        tags,
        summary: '支付结果查询（收银台轮询）',
        body: OrderNoBody,
        response: { 200: PayResultReply },
      },
    },
    async (req) => ok(await payResultQuery(memberCtx(req.ctx), req.body.orderNo, opts.wechat)),
  );

  app.post(
    '/api/order/myOrderList',
    {
      config,
      schema: { tags, summary: '我的订单', body: MyOrderListBody, response: { 200: OrderPageReply } },
    },
    async (req) => ok(await myOrderList(memberCtx(req.ctx), req.body)),
  );
  app.post(
    '/api/order/orderCount',
    {
      config,
      schema: { tags, summary: '各状态订单数', body: OrderCountBody, response: { 200: OrderCountReply } },
    },
    async (req) => ok(await orderCount(memberCtx(req.ctx))),
  );
  app.post(
    '/api/order/orderDetail',
    { config, schema: { tags, summary: '订单详情', body: OrderNoBody, response: { 200: OrderDetailReply } } },
    async (req) => ok(await orderDetail(memberCtx(req.ctx), req.body.orderNo)),
  );
  app.post(
    '/api/order/cancelOrder',
    {
      config,
      schema: {
        tags,
        summary: '取消订单（仅待付款）',
        body: CancelOrderBody,
        response: { 200: OrderStateReply },
      },
    },
    async (req) => {
      const ctx = memberCtx(req.ctx);
      // Its WeChat code is closed first, so the member cannot pay an order being cancelled.
      await opts.wechat.closeOpenCode(ctx.db, await findOrder(ctx, req.body.orderNo), '会员取消订单');
      return ok(await cancelOrder(ctx, req.body.orderNo, req.body.reason), ORDER_MSG.cancelled);
    },
  );
  app.post(
    '/api/order/confirmOrder',
    { config, schema: { tags, summary: '确认收货', body: OrderNoBody, response: { 200: OrderStateReply } } },
    async (req) => ok(await confirmOrder(memberCtx(req.ctx), req.body.orderNo), ORDER_MSG.confirmed),
  );
  // The one answer that is not an envelope: a file. A failure before it still answers the envelope.
  app.post(
    '/api/order/exportOrderList',
    {
      config,
      schema: {
        tags,
        summary: '导出我的订单（xlsx）',
        body: MyOrderListBody,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      },
    },
    async (req, reply) => {
      const file = await exportOrderList(memberCtx(req.ctx), req.body);
      const day = chinaTime(new Date(), 'YYYYMMDD');
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="orders-${day}.xlsx"`)
        .send(file);
    },
  );
  app.post(
    '/api/order/trackDetail',
    { config, schema: { tags, summary: '物流详情', body: OrderNoBody, response: { 200: TrackDetailReply } } },
    async (req) => ok(await trackDetail(memberCtx(req.ctx), req.body.orderNo)),
  );
};
