import { PROVIDER_ISSUED_SOURCES, SOURCE_TYPES } from '@sitemall/contract';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { TestApp } from '../../test/harness';
import { onSaleAt } from '../catalog/cards';
import { product, productSpecification, sitePrice, siteProduct } from '../catalog/catalog.tables';
import { client } from '../identity/identity.fixtures';
import { seedMember } from '../identity/members';
import { postEntry } from '../points/points.service';

/** Test helpers for cart, address and order (real app, real database). */

const VIRTUAL = SOURCE_TYPES.filter((s) => !s.hasAddressTab).map((s) => s.source);
/** Virtual goods completed at payment (not tickets, top-ups or e-codes a provider issues after it). */
const INSTANT = VIRTUAL.filter((source) => !PROVIDER_ISSUED_SOURCES.includes(source));

export interface PickedSpec {
  productId: number;
  specificationId: number;
  price: number;
  source: number;
}

/**
 * Specifications the site sells without a purchase limit, physical or virtual goods, with
 * distinct products; their stock is set to `stock` so tests know what is left.
 */
export async function pickSpecs(
  db: Db,
  siteId: number,
  options: { virtual?: boolean; instant?: boolean; count?: number; stock?: number } = {},
): Promise<PickedSpec[]> {
  const rows = await db
    .selectDistinctOn([productSpecification.productId], {
      productId: productSpecification.productId,
      specificationId: productSpecification.id,
      price: sitePrice.price,
      source: product.source,
    })
    .from(productSpecification)
    .innerJoin(product, eq(product.id, productSpecification.productId))
    .innerJoin(siteProduct, and(eq(siteProduct.productId, product.id), onSaleAt(siteId)))
    .innerJoin(
      sitePrice,
      and(eq(sitePrice.specificationId, productSpecification.id), eq(sitePrice.siteId, siteId)),
    )
    .where(
      and(
        options.virtual ? undefined : eq(siteProduct.limitNum, 0),
        sql`${sitePrice.price} > 0`,
        options.virtual
          ? inArray(product.source, options.instant ? INSTANT : VIRTUAL)
          : notInArray(product.source, VIRTUAL),
      ),
    )
    .orderBy(asc(productSpecification.productId), asc(productSpecification.id))
    .limit(options.count ?? 1);
  if (rows.length < (options.count ?? 1)) throw new Error('not enough demo products');
  if (options.stock !== undefined) {
    await setStock(
      db,
      rows.map((r) => r.specificationId),
      options.stock,
    );
  }
  return rows;
}

/** A line of `productInfos` as submitOrder takes it: the specification, `num` pieces. */
export const lineOf = (s: Pick<PickedSpec, 'productId' | 'specificationId'>, num = 1) => ({
  productId: s.productId,
  specificationId: s.specificationId,
  num,
});

export async function setStock(db: Db, ids: number[], stock: number) {
  await db.update(productSpecification).set({ stock }).where(inArray(productSpecification.id, ids));
}

export async function stockOf(db: Db, id: number): Promise<number> {
  const [row] = await db
    .select({ stock: productSpecification.stock })
    .from(productSpecification)
    .where(eq(productSpecification.id, id));
  return row?.stock ?? -1;
}

let phoneSeq = 0;
/** A new member of the site with points, logged in. */
export async function buyer(t: TestApp, siteId: number, points = 0) {
  phoneSeq += 1;
  const phone = `139${String(process.pid % 1000).padStart(3, '0')}${String(phoneSeq).padStart(5, '0')}`;
  const row = await seedMember(t.db, { siteId, phone, password: 'Buyer1234' });
  if (points > 0)
    await postEntry(t.db, { siteId, memberId: row.id, amount: points, type: 'issue', note: '测试发放' });
  const token = await client(t).tokenOf(siteId, phone, 'Buyer1234');
  return { id: row.id, phone, token };
}

/** A valid address payload in Nanjing. */
export const NANJING = {
  consignee: '张三',
  phone: '13912345678',
  provinceCode: '320000',
  cityCode: '320100',
  districtCode: '320102',
  detail: '中山路 1 号',
};
/** A remote province (freight extra): Urumqi, Xinjiang. */
export const URUMQI = {
  consignee: '李四',
  phone: '13912345679',
  provinceCode: '650000',
  cityCode: '650100',
  districtCode: '650102',
  detail: '人民路 2 号',
};
