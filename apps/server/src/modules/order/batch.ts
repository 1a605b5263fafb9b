import { createHash } from 'node:crypto';
import {
  BATCH_MAX_NUM,
  BATCH_MSG,
  type BatchGroup,
  type BatchOrderResult,
  type BatchPreview,
  type BatchRow,
  type BatchSubmitResult,
  type District,
  fenToYuan,
  isMobile,
  ORDER_STATUS_LABEL,
} from '@sitemall/contract';
import { AppError, failure } from '../../lib/errors';
import { districtList } from '../address/districts';
import type { MemberCtx } from '../cart/cart.service';
import { sourceOf } from '../catalog/catalog.service';
import {
  type ProductOnSite,
  productsOnSite,
  type SpecificationOnSite,
  specificationsOnSite,
} from '../catalog/products';
import { purchaseProblem } from '../catalog/purchasable';
import { getBalance } from '../points/points.service';
import { readSheet, reportWorkbook, type SheetRow, templateWorkbook } from './batch-sheet';
import { fareOf } from './freight';
import type { AddressSnapshot } from './order.tables';
import { answerOf, submitOrder } from './submit';

/**
 * Batch ordering (/batchOrder): a sheet of lines becomes one order per recipient (name, phone
 * and address). The server keeps nothing between preview and submit: the member posts the same
 * sheet again, and the batch's identity is a hash of its rows, so submitting a batch twice
 * answers the orders it already made (each recipient's order carries a key derived from it).
 */

export const batchTemplate = templateWorkbook;

// ---- address by names --------------------------------------------------------------------

const SUFFIX = /(省|市|自治区|特别行政区|壮族|回族|维吾尔|自治州|地区|盟|区|县|旗)+$/;

/** A division by its name: exact, or the same name without its suffix (江苏 = 江苏省). */
function byName(list: readonly District[], text: string): District | undefined {
  const exact = list.find((d) => d.name === text);
  if (exact) return exact;
  const short = text.replace(SUFFIX, '');
  if (short.length < 2) return undefined;
  const found = list.filter((d) => d.name.replace(SUFFIX, '') === short);
  return found.length === 1 ? found[0] : undefined;
}

export type ResolvedAddress =
  | { ok: true; codes: Pick<AddressSnapshot, 'provinceCode' | 'cityCode' | 'districtCode'>; names: string[] }
  | { ok: false; error: string };

/**
 * Province, city and district by name through the address module's division data. A
 * municipality's only city may be written as the municipality, as 市辖区, or left empty.
 */
export function resolveAddressNames(province: string, city: string, district: string): ResolvedAddress {
  if (!province) return { ok: false, error: '请填写省份' };
  const p = byName(districtList(), province);
  if (!p) return { ok: false, error: `省份“${province}”不存在` };
  const cities = districtList(p.code);
  let c = city ? byName(cities, city) : undefined;
  if (!c && cities.length === 1 && (!city || city === '市辖区' || byName([p], city))) c = cities[0];
  if (!c) return { ok: false, error: city ? `城市“${city}”不属于${p.name}` : '请填写城市' };
  const districts = districtList(c.code);
  if (districts.length === 0) {
    return {
      ok: true,
      codes: { provinceCode: p.code, cityCode: c.code, districtCode: '' },
      names: [p.name, c.name, ''],
    };
  }
  if (!district) return { ok: false, error: '请填写区/县' };
  const d = byName(districts, district);
  if (!d) return { ok: false, error: `区/县“${district}”不属于${c.name}` };
  return {
    ok: true,
    codes: { provinceCode: p.code, cityCode: c.code, districtCode: d.code },
    names: [p.name, c.name === p.name ? '' : c.name, d.name],
  };
}

// ---- validation --------------------------------------------------------------------------

interface CheckedRow extends BatchRow {
  spec?: SpecificationOnSite;
  recipient?: AddressSnapshot;
  groupKey?: string;
}

interface CheckedGroup extends BatchGroup {
  key: string;
  recipient: AddressSnapshot;
  rows: CheckedRow[];
}

interface CheckedBatch {
  batchId: string;
  rows: CheckedRow[];
  groups: CheckedGroup[];
}

const isDigits = (s: string) => /^\d{1,9}$/.test(s);

function findProduct(cell: string, products: readonly ProductOnSite[]): ProductOnSite | string {
  if (!cell) return '请填写商品ID或名称';
  if (isDigits(cell)) {
    const byId = products.find((p) => p.productId === Number(cell));
    if (byId) return byId;
  }
  const named = products.filter((p) => p.name === cell);
  if (named.length === 1 && named[0]) return named[0];
  if (named.length > 1) return `商品名称“${cell}”对应多个商品，请填写商品ID`;
  return `商品“${cell}”不存在或本站未销售`;
}

function findSpecification(cell: string, p: ProductOnSite): number | string {
  const specs = p.specifications;
  if (!cell) {
    if (specs.length === 1 && specs[0]) return specs[0].id;
    return `请填写规格（可选：${specs.map((s) => s.specificationValue).join('、')}）`;
  }
  const byValue = specs.find((s) => s.specificationValue === cell);
  if (byValue) return byValue.id;
  if (isDigits(cell)) {
    const byId = specs.find((s) => s.id === Number(cell));
    if (byId) return byId.id;
  }
  return `规格“${cell}”不存在（可选：${specs.map((s) => s.specificationValue).join('、')}）`;
}

/**
 * Every row checked against the site's products, stock, limits and the division data; rows
 * grouped by recipient; each group priced with the order module's freight rules. `stock`
 * false leaves stock to the submission itself (it takes stock atomically per order).
 */
async function checkBatch(
  ctx: MemberCtx,
  sheet: SheetRow[],
  options: { stock: boolean },
): Promise<CheckedBatch> {
  const siteId = ctx.site.row.id;
  const batchId = createHash('sha256')
    .update(JSON.stringify(sheet.map((r) => [r.rowNo, Object.values(r.cells)])))
    .digest('hex');
  const products = await productsOnSite(ctx.db, siteId, {
    ids: sheet
      .map((r) => r.cells.product)
      .filter(isDigits)
      .map(Number),
    names: sheet.map((r) => r.cells.product).filter((s) => s !== ''),
  });
  const resolved = sheet.map((r) => {
    const found = findProduct(r.cells.product, products);
    if (typeof found === 'string') return { product: undefined, spec: found };
    return { product: found, spec: findSpecification(r.cells.specification, found) };
  });
  const specs = await specificationsOnSite(
    ctx,
    siteId,
    resolved.map((r) => r.spec).filter((s): s is number => typeof s === 'number'),
  );

  const rows: CheckedRow[] = sheet.map((r, i) => {
    const c = r.cells;
    const errors: string[] = [];
    const { product, spec: specRef } = resolved[i] ?? {};
    if (typeof specRef === 'string') errors.push(specRef);
    const spec = typeof specRef === 'number' ? specs.get(specRef) : undefined;
    const num = /^\d+$/.test(c.num) ? Number(c.num) : Number.NaN;
    if (!Number.isInteger(num) || num < 1 || num > BATCH_MAX_NUM)
      errors.push(`数量须为 1-${BATCH_MAX_NUM} 的整数`);
    else if (spec) {
      const problem = purchaseProblem(
        spec,
        { productId: spec.productId, num },
        { stock: options.stock, offSale: '该商品已下架' },
      );
      if (problem) errors.push(problem);
    }
    let recipient: AddressSnapshot | undefined;
    const recipientErrors: string[] = [];
    if (!c.consignee || c.consignee.length > 20) recipientErrors.push('收货人姓名须为 1-20 个字');
    if (!isMobile(c.phone)) recipientErrors.push('手机号须为 11 位数字，以 1 开头');
    const place = resolveAddressNames(c.province, c.city, c.district);
    if (!place.ok) recipientErrors.push(place.error);
    if (!c.detail || c.detail.length > 120) recipientErrors.push('详细地址须为 1-120 个字');
    if (recipientErrors.length === 0 && place.ok) {
      const [provinceName = '', cityName = '', districtName = ''] = place.names;
      recipient = {
        consignee: c.consignee,
        phone: c.phone,
        ...place.codes,
        provinceName,
        cityName: cityName || provinceName,
        districtName,
        detail: c.detail,
      };
    }
    errors.push(...recipientErrors);
    const price = spec?.price ?? 0;
    return {
      rowNo: r.rowNo,
      product: c.product,
      specification: c.specification,
      num: c.num,
      consignee: c.consignee,
      phone: c.phone,
      address: [c.province, c.city, c.district, c.detail].filter(Boolean).join(' '),
      productId: product?.productId ?? null,
      specificationId: spec?.specificationId ?? null,
      name: spec?.name ?? product?.name ?? '',
      specificationValue: spec?.specificationValue ?? '',
      price,
      amount: Number.isInteger(num) ? price * num : 0,
      groupNo: null,
      errors,
      spec,
      recipient,
      groupKey: recipient
        ? [
            recipient.consignee,
            recipient.phone,
            recipient.districtCode || recipient.cityCode,
            recipient.detail,
          ].join('\u0001')
        : undefined,
    };
  });

  // Quantities that only fail together: one recipient's pieces of a product against its
  // per-order limit, and the whole sheet's pieces of a specification against its stock.
  const perOrderProduct = new Map<string, number>();
  const perSpec = new Map<number, number>();
  for (const r of rows) {
    if (!r.spec || r.errors.length > 0) continue;
    const n = Number(r.num);
    const key = `${r.groupKey}\u0002${r.spec.productId}`;
    perOrderProduct.set(key, (perOrderProduct.get(key) ?? 0) + n);
    perSpec.set(r.spec.specificationId, (perSpec.get(r.spec.specificationId) ?? 0) + n);
  }
  for (const r of rows) {
    if (!r.spec || r.errors.length > 0) continue;
    const total = perOrderProduct.get(`${r.groupKey}\u0002${r.spec.productId}`) ?? 0;
    if (r.spec.limitNum > 0 && total > r.spec.limitNum)
      r.errors.push(`同一收货人该商品合计 ${total} 件，超过每单限购 ${r.spec.limitNum} 件`);
    const sum = perSpec.get(r.spec.specificationId) ?? 0;
    if (options.stock && sum > r.spec.stock)
      r.errors.push(`全表该规格合计 ${sum} 件，库存仅剩 ${r.spec.stock} 件`);
    if (total > BATCH_MAX_NUM) r.errors.push(`同一收货人同一商品合计不能超过 ${BATCH_MAX_NUM} 件`);
  }

  const groups = new Map<string, CheckedGroup>();
  for (const r of rows) {
    if (!r.recipient || !r.groupKey) continue;
    let g = groups.get(r.groupKey);
    if (!g) {
      const a = r.recipient;
      g = {
        key: r.groupKey,
        groupNo: groups.size + 1,
        consignee: a.consignee,
        phone: a.phone,
        address: [a.provinceName, a.cityName === a.provinceName ? '' : a.cityName, a.districtName, a.detail]
          .filter(Boolean)
          .join(' '),
        rowNos: [],
        lineCount: 0,
        goodsAmount: 0,
        freightAmount: 0,
        totalAmount: 0,
        isValid: true,
        recipient: a,
        rows: [],
      };
      groups.set(r.groupKey, g);
    }
    r.groupNo = g.groupNo;
    g.rowNos.push(r.rowNo);
    g.rows.push(r);
  }
  for (const g of groups.values()) {
    g.isValid = g.rows.every((r) => r.errors.length === 0);
    const bySource = new Map<
      number,
      { source: number; sourceName: string; hasAddress: boolean; goodsAmount: number }
    >();
    for (const r of g.rows) {
      if (!r.spec || r.errors.length > 0) continue;
      g.lineCount += 1;
      const named = sourceOf(ctx.site, r.spec.source, r.spec.sourceType);
      const s = bySource.get(r.spec.source) ?? {
        source: r.spec.source,
        sourceName: named.name,
        hasAddress: named.hasAddressTab,
        goodsAmount: 0,
      };
      s.goodsAmount += r.amount;
      bySource.set(r.spec.source, s);
    }
    g.goodsAmount = [...bySource.values()].reduce((sum, s) => sum + s.goodsAmount, 0);
    g.freightAmount = [...bySource.values()].reduce((sum, s) => sum + fareOf(s, g.recipient.provinceCode), 0);
    g.totalAmount = g.goodsAmount + g.freightAmount;
  }
  return { batchId, rows, groups: [...groups.values()] };
}

const presentRow = ({ spec, recipient, groupKey, ...row }: CheckedRow): BatchRow => row;
const presentGroup = ({ key, recipient, rows, ...group }: CheckedGroup): BatchGroup => group;

export async function previewBatch(ctx: MemberCtx, file: Buffer): Promise<BatchPreview> {
  const batch = await checkBatch(ctx, await readSheet(file), { stock: true });
  const valid = batch.groups.filter((g) => g.isValid);
  const totalAmount = valid.reduce((s, g) => s + g.totalAmount, 0);
  const balance = await getBalance(ctx, { siteId: ctx.site.row.id, memberId: ctx.member.id });
  return {
    batchId: batch.batchId,
    rows: batch.rows.map(presentRow),
    groups: batch.groups.map(presentGroup),
    errorCount: batch.rows.filter((r) => r.errors.length > 0).length,
    goodsAmount: valid.reduce((s, g) => s + g.goodsAmount, 0),
    freightAmount: valid.reduce((s, g) => s + g.freightAmount, 0),
    totalAmount,
    balance,
    isBalanceEnough: balance >= totalAmount,
  };
}

/** The idempotency key of one recipient's order in a batch (submitOrder's requestId rule). */
export const groupRequestKey = (batchId: string, groupKey: string) =>
  `batch:${createHash('sha256').update(`${batchId}\u0000${groupKey}`).digest('hex').slice(0, 40)}`;

/** A sheet with any wrong row is refused whole: the member fixes or drops the row first. */
async function checkedForSubmit(ctx: MemberCtx, file: Buffer) {
  const batch = await checkBatch(ctx, await readSheet(file), { stock: false });
  const wrong = batch.rows.filter((r) => r.errors.length > 0);
  if (wrong.length > 0) {
    const first = wrong
      .slice(0, 3)
      .map((r) => `第 ${r.rowNo} 行：${r.errors.join('；')}`)
      .join('\n');
    throw failure(`${BATCH_MSG.hasErrors}\n${first}`);
  }
  return batch;
}

/**
 * Submits one order per recipient through the order module, each all-or-nothing on its own
 * (its stock is taken whole or not at all); one recipient's failure leaves the others' orders.
 * Orders stay pending payment: the member pays them from my orders, where the points balance
 * is checked per order.
 */
export async function submitBatch(
  ctx: MemberCtx,
  file: Buffer,
  options: { expireMinutes: number },
): Promise<BatchSubmitResult> {
  const batch = await checkedForSubmit(ctx, file);
  const results: BatchOrderResult[] = [];
  for (const g of batch.groups) {
    const base = {
      groupNo: g.groupNo,
      consignee: g.consignee,
      phone: g.phone,
      address: g.address,
      rowNos: g.rowNos,
    };
    try {
      const order = await submitOrder(
        ctx,
        {
          siteId: ctx.site.row.id,
          productInfos: g.rows.map((r) => ({
            productId: r.productId ?? 0,
            specificationId: r.specificationId ?? 0,
            num: Number(r.num),
          })),
          remark: `批量下单 ${batch.batchId.slice(0, 8)}`,
        },
        {
          idempotencyKey: groupRequestKey(batch.batchId, g.key),
          expireMinutes: options.expireMinutes,
          address: g.recipient,
        },
      );
      results.push({
        ...base,
        isSuccess: true,
        orderNo: order.orderNo,
        payAmount: order.payAmount,
        msg: order.msg,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ ...base, isSuccess: false, orderNo: null, payAmount: 0, msg: error.msg });
    }
  }
  const made = results.filter((r) => r.isSuccess);
  return {
    batchId: batch.batchId,
    results,
    successCount: made.length,
    failureCount: results.length - made.length,
    payAmount: made.reduce((s, r) => s + r.payAmount, 0),
  };
}

/**
 * The result report of a submitted sheet: the orders its recipients' keys made (with their
 * current status), read back, never submitted again.
 */
export async function batchReport(ctx: MemberCtx, file: Buffer): Promise<Buffer> {
  const batch = await checkedForSubmit(ctx, file);
  const lines = [];
  for (const g of batch.groups) {
    const order = await answerOf(ctx, groupRequestKey(batch.batchId, g.key));
    lines.push({
      consignee: g.consignee,
      phone: g.phone,
      address: g.address,
      rowNos: g.rowNos,
      result: order ? '已下单' : '未下单',
      orderNo: order?.orderNo ?? '',
      payAmount: order ? fenToYuan(order.payAmount) : '',
      msg: order ? (ORDER_STATUS_LABEL[order.status] ?? '') : '该收货人没有订单，请检查库存后重新提交',
    });
  }
  return reportWorkbook(lines);
}
