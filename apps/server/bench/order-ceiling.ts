/**
 * The ceiling of "submit + pay with points": the rows the product writes for one paid order
 * (stock reserved, order, child order, line, status log, balance debit with its ledger entry),
 * as raw SQL with prepared statements and no reads, run by the same 32 members in a loop.
 * Two shapes: one client transaction of six statements, and one statement (data-modifying CTEs).
 */
import { type LoopResult, timedLoops } from './orders';
import type { RawDb, RawQuery } from './raw-db';

export interface CeilingBuyer {
  memberId: number;
}
export interface CeilingSpec {
  productId: number;
  specificationId: number;
  price: number;
  source: number;
}

const SITE = 719;
const CONFIRMING = 24;
const ADDRESS = JSON.stringify({
  consignee: '压测',
  phone: '13700000000',
  provinceCode: '320000',
  provinceName: '江苏省',
  cityCode: '320100',
  cityName: '南京市',
  districtCode: '320102',
  districtName: '玄武区',
  detail: '中山路 1 号',
});

let serial = 0;
const orderNo = () => `C${process.pid}${Date.now()}${serial++}`;

/** $1 order no, $2 member, $3 specification, $4 product, $5 price, $6 source. */
const SQL = {
  stock: 'update product_specification set stock = stock - 1 where id = $1 and stock >= 1 returning id',
  order: `insert into mall_order (order_no, site_id, member_id, status, goods_amount, freight_amount,
      pay_amount, is_virtual, address, expire_at, pay_way, paid_at)
    values ($1, ${SITE}, $2, ${CONFIRMING}, $3, 0, $3, false, $4, now() + interval '30 minutes', 'ye', now())
    returning id`,
  child: `insert into child_order (order_id, child_order_no, site_id, source, source_type, source_name,
      has_address, status, goods_amount, freight_amount)
    values ($1, $2 || '01', ${SITE}, $3, 1, 'bench', true, ${CONFIRMING}, $4, 0) returning id`,
  line: `insert into order_line (order_id, child_order_id, site_id, product_id, specification_id, name,
      specification_value, price, num, amount)
    values ($1, $2, ${SITE}, $3, $4, 'bench', '默认', $5, 1, $5)`,
  log: `insert into order_status_log (order_id, site_id, from_status, status, note)
    values ($1, ${SITE}, null, 0, '提交订单'), ($1, ${SITE}, 0, ${CONFIRMING}, '积分支付成功')`,
  debit: `with moved as (
      update points_account set balance = balance - $3, updated_at = now()
      where site_id = ${SITE} and member_id = $1 and balance >= $3 returning balance)
    insert into points_entry (site_id, member_id, amount, balance_after, type, order_no, note, request_key)
    select ${SITE}, $1, -$3, moved.balance, 'pay', $2, '订单支付', 'pay:' || $2 from moved returning id`,
  one: `with stock as (
      update product_specification set stock = stock - 1 where id = $3 and stock >= 1 returning id),
    o as (
      insert into mall_order (order_no, site_id, member_id, status, goods_amount, freight_amount,
        pay_amount, is_virtual, address, expire_at, pay_way, paid_at)
      select $1, ${SITE}, $2, ${CONFIRMING}, $5, 0, $5, false, $7::jsonb, now() + interval '30 minutes', 'ye', now()
      from stock returning id),
    c as (
      insert into child_order (order_id, child_order_no, site_id, source, source_type, source_name,
        has_address, status, goods_amount, freight_amount)
      select o.id, $1 || '01', ${SITE}, $6, 1, 'bench', true, ${CONFIRMING}, $5, 0 from o
      returning id, order_id),
    l as (
      insert into order_line (order_id, child_order_id, site_id, product_id, specification_id, name,
        specification_value, price, num, amount)
      select c.order_id, c.id, ${SITE}, $4, $3, 'bench', '默认', $5, 1, $5 from c),
    s as (
      insert into order_status_log (order_id, site_id, from_status, status, note)
      select o.id, ${SITE}, v.f, v.t, v.n from o,
        (values (null::smallint, 0::smallint, '提交订单'), (0::smallint, ${CONFIRMING}::smallint, '积分支付成功')) v(f, t, n)),
    moved as (
      update points_account set balance = balance - $5, updated_at = now()
      where site_id = ${SITE} and member_id = $2 and balance >= $5 and exists (select 1 from o)
      returning balance)
    insert into points_entry (site_id, member_id, amount, balance_after, type, order_no, note, request_key)
    select ${SITE}, $2, -$5, moved.balance, 'pay', $1, '订单支付', 'pay:' || $1 from moved returning id`,
};

async function spread(q: RawQuery, memberId: number, spec: CeilingSpec) {
  const no = orderNo();
  const [reserved] = await q.query('c_stock', SQL.stock, [spec.specificationId]);
  if (!reserved) return false;
  const [order] = await q.query('c_order', SQL.order, [no, memberId, spec.price, ADDRESS]);
  const [child] = await q.query('c_child', SQL.child, [order?.id, no, spec.source, spec.price]);
  await q.query('c_line', SQL.line, [order?.id, child?.id, spec.productId, spec.specificationId, spec.price]);
  await q.query('c_log', SQL.log, [order?.id]);
  const [entry] = await q.query('c_debit', SQL.debit, [memberId, no, spec.price]);
  return entry !== undefined;
}

async function oneStatement(q: RawQuery, memberId: number, spec: CeilingSpec) {
  const [entry] = await q.query('c_one', SQL.one, [
    orderNo(),
    memberId,
    spec.specificationId,
    spec.productId,
    spec.price,
    spec.source,
    ADDRESS,
  ]);
  return entry !== undefined;
}

/** Every member orders in a loop until the time is up; `shape` is one client transaction or one statement. */
export function orderCeilingLoop(
  raw: RawDb,
  options: {
    shape: 'transaction' | 'statement';
    memberIds: number[];
    specOf: (i: number) => CeilingSpec;
    seconds: number;
  },
): Promise<LoopResult> {
  return timedLoops(options.memberIds.length, options.seconds, (i) => {
    const memberId = options.memberIds[i] as number;
    const spec = options.specOf(i);
    return options.shape === 'transaction'
      ? raw.transaction((tx) => spread(tx, memberId, spec))
      : oneStatement(raw, memberId, spec);
  });
}
