import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, SiteId } from '@sitemall/contract';
import type { Db } from '../db/client';
import { ok } from '../lib/envelope';
import { failure } from '../lib/errors';
import {
  approveCase,
  completeExchange,
  receiveReturn,
  refundCase,
  refuseReturn,
  rejectCase,
  reshipCase,
} from '../modules/aftersale/operator';
import { approveOrder, rejectOrder, setApprovalRule } from '../modules/approval/approval.service';
import { shipChildOrder } from '../modules/order/fulfilment';

/**
 * The operator's hand until the console has its screens: ships a child order, decides an
 * after-sales case or an approval, by calling the same services the console will. For browser
 * tests and demos only: served while SIMULATORS=on, like every /simulator route.
 */
const Text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const Body = Type.Object({
  siteId: SiteId,
  action: Type.Union(
    [
      'ship',
      'approveCase',
      'rejectCase',
      'receiveReturn',
      'refuseReturn',
      'refundCase',
      'reshipCase',
      'completeExchange',
      'approveOrder',
      'rejectOrder',
      'setApprovalRule',
    ].map((a) => Type.Literal(a)),
  ),
  afterSaleNo: Text(40),
  orderNo: Text(40),
  childOrderNo: Text(40),
  company: Text(40),
  trackingNo: Text(40),
  reason: Text(200),
  /** setApprovalRule: orders paying at least this many fen wait for approval; levels 1 or 2. */
  minAmount: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_000_000_000 })),
  levels: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
});

export const operatorSimulatorRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, opts) => {
  app.post(
    '/simulator/operator',
    {
      schema: {
        tags: ['simulator'],
        summary: '模拟器：运营操作（发货、售后审核/收货/退款、订单审批与审批规则；仅测试与演示）',
        body: Body,
        response: { 200: Envelope(Type.Object({ ok: Type.Boolean() })) },
      },
    },
    async (req) => {
      const { db } = opts;
      const b = req.body;
      const need = (value: string | undefined, name: string) => {
        if (!value) throw failure(`缺少参数 ${name}`);
        return value;
      };
      const kase = () => ({ siteId: b.siteId, afterSaleNo: need(b.afterSaleNo, 'afterSaleNo') });
      const order = () => ({ siteId: b.siteId, orderNo: need(b.orderNo, 'orderNo'), approver: '演示审批员' });
      const parcel = () => ({
        company: b.company ?? '顺丰速运',
        trackingNo: need(b.trackingNo, 'trackingNo'),
      });
      const reason = () => need(b.reason, 'reason');
      const actions: Record<string, () => Promise<unknown>> = {
        ship: () =>
          shipChildOrder(db, {
            siteId: b.siteId,
            childOrderNo: need(b.childOrderNo, 'childOrderNo'),
            ...parcel(),
          }),
        approveCase: () => approveCase(db, kase()),
        rejectCase: () => rejectCase(db, { ...kase(), reason: reason() }),
        receiveReturn: () => receiveReturn(db, kase()),
        refuseReturn: () => refuseReturn(db, { ...kase(), reason: reason() }),
        refundCase: () => refundCase(db, kase()),
        reshipCase: () => reshipCase(db, { ...kase(), ...parcel() }),
        completeExchange: () => completeExchange(db, kase()),
        approveOrder: () => approveOrder(db, order()),
        rejectOrder: () => rejectOrder(db, { ...order(), reason: reason() }),
        setApprovalRule: () =>
          setApprovalRule(db, { siteId: b.siteId, minAmount: b.minAmount ?? 0, levels: b.levels ?? 1 }),
      };
      await (actions[b.action] as () => Promise<unknown>)();
      return ok({ ok: true });
    },
  );
};
