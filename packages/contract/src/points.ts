import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Page, PageNum } from './paging.ts';
import { SiteId } from './site.ts';

export const POINTS_ENTRY_TYPE_LABEL: Record<PointsEntryType, string> = {
  issue: '积分发放',
  pay: '积分支付',
  refund: '退款返还',
  adjust: '积分调整',
  hold: '积分冻结',
  release: '冻结返还',
};

export const PointsEntryTypeSchema = Type.Union([
  Type.Literal('issue'),
  Type.Literal('pay'),
  Type.Literal('refund'),
  Type.Literal('adjust'),
  /** Mixed payment: the points part, held while the WeChat part is paid (and kept when it is). */
  Type.Literal('hold'),
  /** The hold given back when the WeChat part fails, is replaced or expires. */
  Type.Literal('release'),
]);
export type PointsEntryType = Static<typeof PointsEntryTypeSchema>;

export const PointsBalanceBody = Type.Object({ siteId: SiteId });
export const PointsBalance = Type.Object({ balance: Type.Integer({ description: '积分余额（分）' }) });
export type PointsBalance = Static<typeof PointsBalance>;
export const PointsBalanceReply = Envelope(PointsBalance);

export const BillListBody = Type.Object({
  siteId: SiteId,
  type: Type.Optional(PointsEntryTypeSchema),
  startDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD，含当天' })),
  endDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD，含当天' })),
  pageNum: Type.Optional(PageNum),
});
export type BillListBody = Static<typeof BillListBody>;

export const Bill = Type.Object({
  id: Type.Integer(),
  amount: Type.Integer({ description: '正数为收入，负数为支出（分）' }),
  balanceAfter: Type.Integer(),
  type: Type.String(),
  typeName: Type.String(),
  orderNo: Type.Union([Type.String(), Type.Null()]),
  note: Type.String(),
  createTime: Type.String({ format: 'date-time' }),
});
export type Bill = Static<typeof Bill>;

export const BillList = Page(Bill);
export type BillList = Static<typeof BillList>;
export const BillListReply = Envelope(BillList);

const member = { site: 'required', auth: 'required', tag: 'points' } as const;

/** The member's points: balance and the ledger's entries (账单明细). */
export const pointsApi = {
  balance: endpoint({
    ...member,
    method: 'POST',
    path: '/api/points/balance',
    summary: '积分余额',
    body: PointsBalanceBody,
    reply: PointsBalanceReply,
  }),
  billList: endpoint({
    ...member,
    method: 'POST',
    path: '/api/points/billList',
    summary: '账单明细（积分流水）',
    body: BillListBody,
    reply: BillListReply,
  }),
};
