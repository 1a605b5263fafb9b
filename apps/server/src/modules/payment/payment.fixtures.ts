import { addressApi, orderApi, type PayResult } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, NANJING, pickSpecs } from '../order/order.fixtures';
import { payMerchant } from './payment.tables';
import type { Transaction } from './wechatpay/client';
import { beijingTime, encryptResource, wechatpayHeaders } from './wechatpay/protocol';

/** Test helpers for WeChat Pay: a member with an order to pay, and hand-made notifies. */

export async function orderToPay(t: TestApp, siteId: number, points = 0) {
  const member = await buyer(t, siteId, points);
  const api = client(t);
  await api.post(addressApi.save.path, { siteId, ...NANJING }, member.token);
  const [spec] = await pickSpecs(t.db, siteId, { stock: 100 });
  const submitted = await api.post<{ orderNo: string }>(
    orderApi.submitOrder.path,
    {
      siteId,
      productInfos: [{ productId: spec?.productId, specificationId: spec?.specificationId, num: 1 }],
    },
    member.token,
  );
  const { orderNo } = submitted.body.data;
  const pay = (payWay = 'wx_pc', extra: object = {}) =>
    api.post<PayResult>(orderApi.payOrder.path, { siteId, orderNo, payWay, ...extra }, member.token);
  const query = () => api.post<PayResult>(orderApi.payResultQuery.path, { siteId, orderNo }, member.token);
  return { member, api, orderNo, pay, query, specificationId: spec?.specificationId as number };
}

/** A TRANSACTION.SUCCESS notify as WeChat would post it, sealed with the site's APIv3 key. */
export async function notifyFor(
  t: TestApp,
  siteId: number,
  trade: Transaction,
  stamp: { timestamp?: number } = {},
) {
  const [merchant] = await t.db.select().from(payMerchant).where(eq(payMerchant.siteId, siteId));
  if (!merchant) throw new Error(`site ${siteId} has no merchant`);
  const body = JSON.stringify({
    id: `EV-${trade.out_trade_no}`,
    create_time: beijingTime(new Date()),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: encryptResource(JSON.stringify(trade), merchant.apiV3Key, {
      associatedData: 'transaction',
      originalType: 'transaction',
    }),
  });
  const signer = t.secrets.wechatpaySimSigners[0];
  if (!signer) throw new Error('no simulator signer');
  return { body, headers: { 'content-type': 'application/json', ...wechatpayHeaders(body, signer, stamp) } };
}

export const postNotify = (
  t: TestApp,
  siteId: number,
  notify: { body: string; headers: Record<string, string> },
) =>
  t.app.inject({
    method: 'POST',
    url: `/front-mall-api/api/pay/wechat/notify/${siteId}`,
    payload: notify.body,
    headers: notify.headers,
  });
