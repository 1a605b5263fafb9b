import { type Static, Type } from '@sinclair/typebox';
import { Address } from './address.ts';
import { CartLinesInput, IdList } from './cart.ts';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { Amount, Id as IdOf, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';
import { ProviderGoods } from './provider.ts';
import { SiteId } from './site.ts';

/**
 * Orders, freight and points payment (spec sections 3, 4, 7, 9). One order splits into child
 * orders, one per supply source. Every amount is an integer in fen computed by the server.
 */

/**
 * The order status codes of spec section 4 (labels: ORDER_STATUS_LABEL). Which status follows
 * which is ORDER_TRANSITIONS (order-machine.ts); approval (11, 12, 15, 21), after-sales (31)
 * and failure (51) are there for the coming issues, nothing moves an order into them yet.
 */
export const ORDER_STATUS = {
  pendingPayment: 0,
  /** Waiting for the (first) approver. */
  pendingApproval: 11,
  /** Waiting for the second approver, when the first passed it on. */
  pendingFinalApproval: 12,
  /** Approved, waiting for payment (spec label 待付款, as 0). */
  approvedPendingPayment: 15,
  notApproved: 21,
  /** Paid; the supplier confirms and prepares the shipment (spec label 确认中). */
  confirming: 24,
  awaitingReceipt: 22,
  completed: 23,
  withdrawn: 4,
  afterSales: 31,
  expired: 41,
  failed: 51,
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** Status tabs of /myOrder: each tab lists the orders in any of its statuses. */
export const ORDER_TABS = [
  { key: 'all', name: '全部订单', statuses: [] as number[] },
  { key: 'pendingPayment', name: '待付款', statuses: [0, 15] },
  { key: 'pendingApproval', name: '待审批', statuses: [11, 12] },
  { key: 'confirming', name: '确认中', statuses: [24] },
  { key: 'awaitingReceipt', name: '待收货', statuses: [22] },
  { key: 'completed', name: '已完成', statuses: [23] },
  { key: 'cancelled', name: '已取消', statuses: [4, 41] },
] as const;
export type OrderTabKey = (typeof ORDER_TABS)[number]['key'];

/** Unpaid orders expire after this many minutes unless ORDER_EXPIRE_MINUTES says otherwise. */
export const DEFAULT_ORDER_EXPIRE_MINUTES = 30;

export const ORDER_MSG = {
  submitted: '下单成功',
  paid: '支付成功',
  alreadyPaid: '订单已支付，请勿重复支付',
  cancelled: '订单已取消',
  confirmed: '已确认收货',
  notFound: '订单不存在',
  noLines: '请选择要结算的商品',
  addressRequired: '请选择收货地址',
  voucherUnavailable: '优惠券不存在或不可用',
  notPending: '订单当前状态不可支付',
  notCancellable: '只有待付款的订单可以取消',
  notConfirmable: '只有待收货的订单可以确认收货',
  expired: '订单已过期，请重新下单',
  payWayOff: '本站未开通该支付方式',
  scanToPay: '请使用微信扫码支付',
  wechatOff: '本站点暂未配置微信支付，请使用积分支付',
  wechatFailed: '微信支付下单失败，请稍后重试',
  mixedOff: '本站点不支持积分与微信组合支付',
  pointsPartInvalid: '积分抵扣数额不正确，微信支付部分至少 0.01 元',
  pointsShort: '积分余额不足',
  soldOut: '库存不足，请调整购买数量',
  badRequestId: '参数 requestId 格式不正确',
} as const;

const Id = IdOf();
export const OrderNo = Type.String({ pattern: '^[A-Za-z0-9]{8,40}$' });
const Time = Type.String({ format: 'date-time' });

// ---- model -------------------------------------------------------------------------------

/** A bought line, as snapshot at submission. */
export const OrderLine = Type.Object({
  productId: Type.Integer(),
  specificationId: Type.Integer(),
  name: Type.String(),
  image: Type.String(),
  specificationValue: Type.String(),
  price: Type.Integer({ description: 'unit price at submission, fen' }),
  num: Type.Integer(),
  amount: Type.Integer({ description: 'price × num, fen' }),
});
export type OrderLine = Static<typeof OrderLine>;

export const ChildOrder = Type.Object({
  childOrderNo: Type.String(),
  source: Type.Integer(),
  sourceName: Type.String(),
  hasAddress: Type.Boolean({ description: 'false for virtual goods (no delivery)' }),
  status: Type.Integer(),
  statusName: Type.String(),
  goodsAmount: Type.Integer(),
  freightAmount: Type.Integer(),
  lines: Type.Array(OrderLine),
});
export type ChildOrder = Static<typeof ChildOrder>;

export const OrderSummary = Type.Object({
  orderNo: Type.String(),
  status: Type.Integer(),
  statusName: Type.String(),
  orderType: Type.Integer(),
  goodsAmount: Type.Integer(),
  freightAmount: Type.Integer(),
  payAmount: Type.Integer({ description: 'goods + freight, fen' }),
  createTime: Time,
  expireTime: Time,
  payTime: Type.Union([Time, Type.Null()], {
    description: 'null for an order never paid (pending, cancelled by the member, expired)',
  }),
  childOrders: Type.Array(ChildOrder),
});
export type OrderSummary = Static<typeof OrderSummary>;

export const OrderAddress = Type.Omit(Address, ['id', 'isDefault']);
export type OrderAddress = Static<typeof OrderAddress>;

export const OrderStatusLog = Type.Object({
  status: Type.Integer(),
  statusName: Type.String(),
  note: Type.String(),
  createTime: Time,
});

export const OrderDetail = Type.Composite([
  OrderSummary,
  Type.Object({
    address: Type.Union([OrderAddress, Type.Null()]),
    payWay: Type.Union([Type.String(), Type.Null()]),
    remark: Type.String(),
    logs: Type.Array(OrderStatusLog),
    /** Cinema tickets, top-ups and e-codes a provider issues (codes masked); absent for other goods. */
    providerGoods: Type.Optional(Type.Array(ProviderGoods)),
  }),
]);
export type OrderDetail = Static<typeof OrderDetail>;

// ---- freight -----------------------------------------------------------------------------

/** What one source charges for delivery (a row of the freight rule table). */
export const FreightRule = Type.Object({
  source: Type.Integer(),
  sourceName: Type.String(),
  fee: Type.Integer({ description: 'fen' }),
  freeOver: Type.Integer({ description: 'goods amount from which delivery is free, fen; 0 = never free' }),
  remoteExtra: Type.Integer({ description: 'added for remote provinces, fen' }),
  remoteProvinces: Type.Array(Type.String({ description: 'province codes' })),
});
export type FreightRule = Static<typeof FreightRule>;

export const FareLine = Type.Object({
  source: Type.Integer(),
  sourceName: Type.String(),
  goodsAmount: Type.Integer(),
  fare: Type.Integer(),
});
export type FareLine = Static<typeof FareLine>;

/** POST /api/fare/getFare and /api/fare/totalFare: the freight of lines to an address. */
export const FareBody = Type.Object({
  siteId: SiteId,
  productInfos: Type.Optional(CartLinesInput),
  cartIds: Type.Optional(IdList),
  addressId: Type.Optional(Id),
  provinceCode: Type.Optional(Type.String({ pattern: '^\\d{6}$' })),
});
export type FareBody = Static<typeof FareBody>;
export const Fare = Type.Object({
  totalFare: Type.Integer(),
  goodsAmount: Type.Integer(),
  list: Type.Array(FareLine),
});
export type Fare = Static<typeof Fare>;
export const FareReply = Envelope(Fare);
export const TotalFare = Type.Object({ totalFare: Type.Integer() });
export const TotalFareReply = Envelope(TotalFare);
/** POST /api/fare/freightList: the rules of the sources this site sells. */
export const FreightListBody = Type.Object({ siteId: SiteId });
export const FreightList = Type.Object({ list: Type.Array(FreightRule) });
export type FreightList = Static<typeof FreightList>;
export const FreightListReply = Envelope(FreightList);

// ---- submit ------------------------------------------------------------------------------

/**
 * POST /api/client/submitOrder: either selected cart lines (cartIds) or buy now
 * (productInfos). requestId (or the Idempotency-Key header) makes a retried submission
 * answer the first order instead of making a second one. Any price sent is ignored.
 */
export const SubmitOrderBody = Type.Object({
  siteId: SiteId,
  cartIds: Type.Optional(IdList),
  productInfos: Type.Optional(CartLinesInput),
  addressId: Type.Optional(Id),
  accVoucherIds: Type.Optional(
    Type.Union([
      Type.Array(Type.Union([Type.String({ maxLength: 64 }), Id]), { maxItems: 20 }),
      Type.String({ maxLength: 1000 }),
    ]),
  ),
  requestId: Type.Optional(Type.String({ pattern: '^[\\w.:-]{8,64}$' })),
  remark: Type.Optional(Type.String({ maxLength: 200 })),
  /**
   * ORDER_TYPE_SECKILL (activity.ts) buys at the flash-sale price; activityId picks the sale.
   * ORDER_TYPE_GROUP (group.ts) buys at the group price: activityId opens a team, teamId joins one.
   */
  orderType: Type.Optional(Int(0, 99)),
  activityId: Type.Optional(Id),
  teamId: Type.Optional(Id),
  /** ORDER_TYPE_BARGAIN (bargain.ts): the member's successful bargain, bought at its price. */
  bargainId: Type.Optional(Id),
});
export type SubmitOrderBody = Static<typeof SubmitOrderBody>;
export const SubmitOrderResult = Type.Object({
  orderNo: Type.String(),
  childOrderNo: Type.Array(Type.String()),
  payAmount: Type.Integer(),
  status: Type.Integer(),
  expireTime: Time,
  msg: Type.String(),
});
export type SubmitOrderResult = Static<typeof SubmitOrderResult>;
export const SubmitOrderReply = Envelope(SubmitOrderResult);

// ---- pay ---------------------------------------------------------------------------------

export const PayWayOption = Type.Object({ code: Type.String(), name: Type.String() });
export const PAY_WAY_NAME: Record<string, string> = { wx_pc: '微信支付', ye: '积分支付', pack: '卡包支付' };

/** POST /api/pay/payOrder (spec section 7): token, orderNo, payWay, orderType, accVoucherIds, siteId. */
export const PayOrderBody = Type.Object({
  siteId: SiteId,
  orderNo: OrderNo,
  payWay: Type.String({ maxLength: 20 }),
  orderType: Type.Optional(Type.Unknown()),
  accVoucherIds: Type.Optional(Type.Unknown()),
  token: Type.Optional(Type.String({ maxLength: 256 })),
  /**
   * Mixed payment (beyond the spec, where the site's mixedPay switch allows it): with wx_pc,
   * the points, in fen, held now and spent when the WeChat part is paid; the rest is paid by WeChat.
   */
  pointsAmount: Type.Optional(Amount()),
});
export type PayOrderBody = Static<typeof PayOrderBody>;

/** The life of one WeChat Native code (one out_trade_no). */
export const WECHAT_CODE_STATE = {
  open: 'open',
  paid: 'paid',
  /** Closed by us (a new code, cancel, expiry) or by WeChat (time_expire reached). */
  closed: 'closed',
  /** WeChat answered PAYERROR (the payer's bank refused). */
  failed: 'failed',
  /** Paid after its order ended: refunded automatically. */
  refunding: 'refunding',
  refunded: 'refunded',
} as const;
export type WechatCodeState = (typeof WECHAT_CODE_STATE)[keyof typeof WECHAT_CODE_STATE];

/** A WeChat Native QR code for an order: code_url is drawn as a QR code in the browser. */
export const WechatCode = Type.Object({
  outTradeNo: Type.String(),
  codeUrl: Type.String(),
  state: Type.Union(Object.values(WECHAT_CODE_STATE).map((s) => Type.Literal(s))),
  cashAmount: Type.Integer({ description: 'paid by WeChat, fen' }),
  pointsAmount: Type.Integer({ description: 'points held for this code, fen' }),
  expireTime: Time,
  /** Demo mode only: the simulator page where a person "scans and pays". */
  scanUrl: Type.Optional(Type.String()),
});
export type WechatCode = Static<typeof WechatCode>;

export const PayResult = Type.Object({
  orderNo: Type.String(),
  isPaid: Type.Boolean(),
  status: Type.Integer(),
  statusName: Type.String(),
  payWay: Type.Union([Type.String(), Type.Null()]),
  payAmount: Type.Integer(),
  balance: Type.Integer({ description: 'points balance after payment, fen' }),
  /** With wx_pc: the code to scan (payOrder) or the latest code's state (payResultQuery). */
  wechat: Type.Optional(WechatCode),
});
export type PayResult = Static<typeof PayResult>;
export const PayResultReply = Envelope(PayResult);

/** POST /api/pay/payOrderInfo: what /selectPayWay shows. */
export const OrderNoBody = Type.Object({ siteId: SiteId, orderNo: OrderNo });
export type OrderNoBody = Static<typeof OrderNoBody>;
export const PayOrderInfo = Type.Object({
  orderNo: Type.String(),
  status: Type.Integer(),
  statusName: Type.String(),
  orderType: Type.Integer(),
  payAmount: Type.Integer(),
  balance: Type.Integer(),
  payWays: Type.Array(PayWayOption),
  expireTime: Time,
  createTime: Time,
  /** The site lets a member pay part with points and the rest by WeChat. */
  mixedPay: Type.Boolean(),
  /** The open WeChat code of this order, so a reload shows the same code. */
  wechat: Type.Optional(WechatCode),
});
export type PayOrderInfo = Static<typeof PayOrderInfo>;
export const PayOrderInfoReply = Envelope(PayOrderInfo);
/** POST /api/pay/confirmPay: answers the paid state (idempotent, changes nothing). */
/**
 * POST /api/pay/payResultQuery (the pay result query): the pay page polls it while a WeChat
 * code is shown; when no notify came yet it asks WeChat (at most every few seconds).
 */

// ---- my orders ---------------------------------------------------------------------------

/** POST /api/order/myOrderList: status filters one code; tab filters a tab of ORDER_TABS. */
export const MyOrderListBody = Type.Object({
  siteId: SiteId,
  status: Type.Optional(Int(0, 99)),
  tab: Type.Optional(Type.Union(ORDER_TABS.map((t) => Type.Literal(t.key)))),
  pageNum: Type.Optional(PageNum),
});
export type MyOrderListBody = Static<typeof MyOrderListBody>;
export const OrderPage = Page(OrderSummary);
export type OrderPage = Static<typeof OrderPage>;
export const OrderPageReply = Envelope(OrderPage);

/** POST /api/order/orderCount: how many orders per status and per tab. */
export const OrderCountBody = Type.Object({ siteId: SiteId });
export const OrderCount = Type.Object({
  total: Type.Integer(),
  byStatus: Type.Array(
    Type.Object({ status: Type.Integer(), statusName: Type.String(), count: Type.Integer() }),
  ),
  byTab: Type.Array(Type.Object({ key: Type.String(), name: Type.String(), count: Type.Integer() })),
});
export type OrderCount = Static<typeof OrderCount>;
export const OrderCountReply = Envelope(OrderCount);

/** POST /api/order/orderDetail */
export const OrderDetailReply = Envelope(OrderDetail);

/** POST /api/order/cancelOrder and /api/order/confirmOrder */
export const CancelOrderBody = Type.Object({
  siteId: SiteId,
  orderNo: OrderNo,
  reason: Type.Optional(Type.String({ maxLength: 100 })),
});
export type CancelOrderBody = Static<typeof CancelOrderBody>;
export const OrderState = Type.Object({
  orderNo: Type.String(),
  status: Type.Integer(),
  statusName: Type.String(),
});
export type OrderState = Static<typeof OrderState>;
export const OrderStateReply = Envelope(OrderState);

/** POST /api/order/trackDetail: logistics events per child order; empty until shipped. */
export const TrackEvent = Type.Object({ time: Time, text: Type.String() });
export const ChildTrack = Type.Object({
  childOrderNo: Type.String(),
  company: Type.String(),
  trackingNo: Type.String(),
  events: Type.Array(TrackEvent),
});
export const TrackDetail = Type.Object({ list: Type.Array(ChildTrack) });
export type TrackDetail = Static<typeof TrackDetail>;
export const TrackDetailReply = Envelope(TrackDetail);

/**
 * Where WeChat Pay posts its notifies (the notify_url of a prepay or a refund), per site.
 * Not endpoints of the table: WeChat signs the raw bytes and expects its own answers (204,
 * or {code: 'FAIL', message}) rather than the envelope.
 */
export const WECHAT_NOTIFY_PATHS = {
  transaction: '/api/pay/wechat/notify/:siteId',
  refund: '/api/pay/wechat/refund-notify/:siteId',
} as const;
/** The notify path of one site (under the API prefix). */
export const wechatNotifyPath = (kind: keyof typeof WECHAT_NOTIFY_PATHS, siteId: number) =>
  WECHAT_NOTIFY_PATHS[kind].replace(':siteId', String(siteId));

/** The media type of the spreadsheets the member downloads (order export, batch sheets). */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// ---- the endpoint table ------------------------------------------------------------------

const member = { site: 'required', auth: 'required', tag: 'order' } as const;

/** Orders, freight and points payment (spec sections 4, 7). */
export const orderApi = {
  submitOrder: endpoint({
    ...member,
    method: 'POST',
    path: '/api/client/submitOrder',
    summary: '提交订单（购物车或立即购买）',
    body: SubmitOrderBody,
    reply: SubmitOrderReply,
  }),
  getFare: endpoint({
    ...member,
    method: 'POST',
    path: '/api/fare/getFare',
    summary: '运费（按来源）',
    body: FareBody,
    reply: FareReply,
  }),
  totalFare: endpoint({
    ...member,
    method: 'POST',
    path: '/api/fare/totalFare',
    summary: '运费合计',
    body: FareBody,
    reply: TotalFareReply,
  }),
  freightList: endpoint({
    site: 'required',
    tag: 'order',
    method: 'POST',
    path: '/api/fare/freightList',
    summary: '运费规则',
    body: FreightListBody,
    reply: FreightListReply,
  }),
  payOrder: endpoint({
    ...member,
    method: 'POST',
    path: '/api/pay/payOrder',
    summary: '支付订单（ye 积分支付；wx_pc 返回微信 Native 二维码）',
    body: PayOrderBody,
    reply: PayResultReply,
  }),
  payOrderInfo: endpoint({
    ...member,
    method: 'POST',
    path: '/api/pay/payOrderInfo',
    summary: '待支付订单（收银台）',
    body: OrderNoBody,
    reply: PayOrderInfoReply,
  }),
  confirmPay: endpoint({
    ...member,
    method: 'POST',
    path: '/api/pay/confirmPay',
    summary: '确认支付结果',
    body: OrderNoBody,
    reply: PayResultReply,
  }),
  payResultQuery: endpoint({
    ...member,
    method: 'POST',
    path: '/api/pay/payResultQuery',
    summary: '支付结果查询（收银台轮询）',
    body: OrderNoBody,
    reply: PayResultReply,
  }),
  myOrderList: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/myOrderList',
    summary: '我的订单',
    body: MyOrderListBody,
    reply: OrderPageReply,
  }),
  orderCount: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/orderCount',
    summary: '各状态订单数',
    body: OrderCountBody,
    reply: OrderCountReply,
  }),
  orderDetail: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/orderDetail',
    summary: '订单详情',
    body: OrderNoBody,
    reply: OrderDetailReply,
  }),
  cancelOrder: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/cancelOrder',
    summary: '取消订单（仅待付款）',
    body: CancelOrderBody,
    reply: OrderStateReply,
  }),
  confirmOrder: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/confirmOrder',
    summary: '确认收货',
    body: OrderNoBody,
    reply: OrderStateReply,
  }),
  /** The one answer of the order screens that is not an envelope: a file. */
  exportOrderList: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/exportOrderList',
    summary: '导出我的订单（xlsx）',
    body: MyOrderListBody,
    reply: ErrorEnvelope,
    file: XLSX_TYPE,
  }),
  trackDetail: endpoint({
    ...member,
    method: 'POST',
    path: '/api/order/trackDetail',
    summary: '物流详情',
    body: OrderNoBody,
    reply: TrackDetailReply,
  }),
};
