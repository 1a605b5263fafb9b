import {
  addressApi,
  afterSaleApi,
  type OrderDetail,
  orderApi,
  type PayResult,
  type SevenDayCheck,
  type SubmitOrderResult,
  shopUrl,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import type { TestApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { shipChildOrder } from '../order/fulfilment';
import { buyer, type lineOf, NANJING } from '../order/order.fixtures';
import { mallOrder, orderStatusLog } from '../order/order.tables';

/** Test helpers for after-sales: a member with delivered, received orders. */

export interface Shopper {
  id: number;
  token: string;
  siteId: number;
}

export async function shopper(t: TestApp, siteId: number, points = 10_000_000): Promise<Shopper> {
  const me = await buyer(t, siteId, points);
  await client(t).post(addressApi.save.path, { siteId, ...NANJING }, me.token);
  return { id: me.id, token: me.token, siteId };
}

/**
 * An order submitted, paid (points or cards, or WeChat with `wechatPoints` points when given), shipped
 * and received by the member; answers the order number and its seven-day check.
 */
export async function receivedOrder(
  t: TestApp,
  me: Shopper,
  lines: ReturnType<typeof lineOf>[],
  options: {
    wechatPoints?: number;
    confirm?: boolean;
    extra?: Record<string, unknown>;
    /** Points (ye, the default) or gift cards first and points for the rest (pack). */
    payWay?: 'ye' | 'pack';
  } = {},
) {
  const api = client(t);
  const submitted = await api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    { siteId: me.siteId, productInfos: lines, ...options.extra },
    me.token,
  );
  if (submitted.body.code !== 200) throw new Error(submitted.body.msg);
  const { orderNo, childOrderNo } = submitted.body.data;
  if (options.wechatPoints === undefined) {
    const paid = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: me.siteId, orderNo, payWay: options.payWay ?? 'ye' },
      me.token,
    );
    if (!paid.body.data.isPaid) throw new Error(paid.body.msg);
  } else {
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const started = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: me.siteId, orderNo, payWay: 'wx_pc', pointsAmount: options.wechatPoints },
      me.token,
    );
    await sim.pay(started.body.data.wechat?.codeUrl as string);
    await sim.idle();
  }
  const detail = await orderDetail(t, me, orderNo);
  for (const child of detail.childOrders.filter((c) => c.hasAddress))
    await shipChildOrder(t.db, {
      siteId: me.siteId,
      childOrderNo: child.childOrderNo,
      company: '顺丰速运',
      trackingNo: `SF${Date.now()}${Math.floor(Math.random() * 1000)}`,
    });
  if (options.confirm !== false) {
    const confirmed = await api.post(orderApi.confirmOrder.path, { siteId: me.siteId, orderNo }, me.token);
    if (confirmed.body.code !== 200) throw new Error(String(confirmed.body.msg));
  }
  return { orderNo, childOrderNo, check: await sevenDay(t, me, orderNo) };
}

export const orderDetail = async (t: TestApp, me: Shopper, orderNo: string) =>
  (await client(t).post<OrderDetail>(orderApi.orderDetail.path, { siteId: me.siteId, orderNo }, me.token))
    .body.data;

export const sevenDay = async (t: TestApp, me: Shopper, orderNo: string) =>
  (
    await client(t).post<SevenDayCheck>(
      afterSaleApi.sevenDayCheck.path,
      { siteId: me.siteId, orderNo },
      me.token,
    )
  ).body.data;

/** Moves an order's receipt `days` into the past (the windows count from it). */
export async function receivedDaysAgo(t: TestApp, orderNo: string, days: number) {
  const [order] = await t.db
    .select({ id: mallOrder.id })
    .from(mallOrder)
    .where(eq(mallOrder.orderNo, orderNo));
  await t.db
    .update(orderStatusLog)
    .set({ createdAt: new Date(Date.now() - days * 86_400_000) })
    .where(and(eq(orderStatusLog.orderId, order?.id as number), eq(orderStatusLog.status, 23)));
}

/** Uploads an after-sales picture as the storefront does (multipart siteId + file). */
export async function uploadPic(t: TestApp, me: Shopper, file: Buffer) {
  const form = new FormData();
  form.append('siteId', String(me.siteId));
  form.append('file', new Blob([file], { type: 'image/png' }), 'pic.png');
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: shopUrl(afterSaleApi.upload),
    headers: { 'content-type': request.headers.get('content-type') as string, token: me.token },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return res.json() as { code: number; msg: string; data: { url: string } | null };
}
