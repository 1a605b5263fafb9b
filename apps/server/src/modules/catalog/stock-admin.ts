import {
  type AdjustStockBody,
  CATALOGUE_MSG,
  MAX_STOCK,
  type StockMoveRow,
  type StockSpec,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, exists, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, badRequest, failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { type OperatorCtx, requireSiteAccess, type SiteScope, sitesToRead } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { inSites } from '../admin/console-kit';
import { operatorNames } from '../admin/operators';
import { product, productSpecification, siteProduct, stockMove } from './catalog.tables';
import { adjustStock } from './inventory';

/**
 * Stock as the console reads and adjusts it, always within a set of sites. A specification's
 * stock is shared by every site selling its product: an operator reaches it through a site of
 * theirs that sells the product, and each adjustment is a row of the stock ledger (who, why,
 * through which site), written with the change by the inventory writer.
 */

/**
 * Specifications of products on sale on the sites with fewer than `below` pieces, the lowest
 * first (the dashboard's low-stock list). Whether some site of the scope sells the product is a
 * semi-join, one row per specification: a join of every listing made distinct read all
 * 2,337,614 listings of --scale first (2.4-5.1 s on the dashboard, 0.03-0.15 s now). Stock has
 * no index on purpose: an order's stock update would then no longer be a HOT update.
 */
export async function lowStock(db: Db, scope: 'all' | number[], below: number, limit = 10) {
  const onSaleInScope = db
    .select({ one: sql`1` })
    .from(siteProduct)
    .where(
      and(
        eq(siteProduct.productId, productSpecification.productId),
        eq(siteProduct.isOnSale, true),
        inSites(siteProduct.siteId, scope),
      ),
    );
  return db
    .select({
      productId: product.id,
      specificationId: productSpecification.id,
      name: product.name,
      specificationValue: productSpecification.specificationValue,
      stock: productSpecification.stock,
    })
    .from(productSpecification)
    .innerJoin(product, eq(product.id, productSpecification.productId))
    .where(and(lt(productSpecification.stock, below), exists(onSaleInScope)))
    .orderBy(asc(productSpecification.stock), asc(productSpecification.id))
    .limit(limit);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const specFields = {
  specificationId: productSpecification.id,
  productId: product.id,
  name: product.name,
  specificationValue: productSpecification.specificationValue,
  stock: productSpecification.stock,
  isOnSale: siteProduct.isOnSale,
};

const specsOfSite = (db: Db, siteId: number, where?: SQL) =>
  db
    .select(specFields)
    .from(productSpecification)
    .innerJoin(product, eq(product.id, productSpecification.productId))
    .innerJoin(siteProduct, and(eq(siteProduct.productId, product.id), eq(siteProduct.siteId, siteId)))
    .where(where);

/** The specifications the site sells, by product id or name, optionally only those below a stock. */
export async function siteStock(
  ctx: OperatorCtx,
  query: { siteId: number; keyword?: string; below?: number; pageNum?: number },
) {
  const text = query.keyword?.trim();
  const byName = text ? ilike(product.name, `%${escapeLike(text)}%`) : undefined;
  const where = and(
    text && /^\d{1,9}$/.test(text) ? or(eq(product.id, Number(text)), byName) : byName,
    query.below ? lt(productSpecification.stock, query.below) : undefined,
  );
  return listPage({
    pageNum: query.pageNum,
    rows: specsOfSite(ctx.db, query.siteId, where).orderBy(
      ...(query.below ? [asc(productSpecification.stock)] : []),
      desc(siteProduct.listedAt),
      asc(product.id),
      asc(productSpecification.sort),
      asc(productSpecification.id),
    ),
    total: ctx.db
      .select({ n: count() })
      .from(productSpecification)
      .innerJoin(product, eq(product.id, productSpecification.productId))
      .innerJoin(
        siteProduct,
        and(eq(siteProduct.productId, product.id), eq(siteProduct.siteId, query.siteId)),
      )
      .where(where),
  });
}

/** The site's low-stock list: specifications on sale with fewer than `below` pieces. */
export async function siteLowStock(ctx: OperatorCtx, siteId: number, below: number): Promise<StockSpec[]> {
  const rows = await lowStock(ctx.db, sitesToRead(ctx, 'stock:view', siteId), below, 20);
  return rows.map((r) => ({ ...r, isOnSale: true }));
}

/** A specification of a product the site sells; 403 for another (another site's), 404 for none. */
async function specOfSite(db: Db, siteId: number, specificationId: number): Promise<StockSpec> {
  const [spec] = await specsOfSite(db, siteId, eq(productSpecification.id, specificationId));
  if (spec) return spec;
  const [exists] = await db
    .select({ id: productSpecification.id })
    .from(productSpecification)
    .where(eq(productSpecification.id, specificationId));
  throw exists
    ? new AppError(403, CATALOGUE_MSG.specNotOnSite)
    : new AppError(404, CATALOGUE_MSG.specUnknown);
}

/**
 * The ledger of a specification, newest first. The stock is shared between sites, so every
 * move is listed; who made a move through a site outside the caller's scope, and why, is not
 * shown.
 */
export async function stockMoves(
  ctx: OperatorCtx,
  query: { siteId: number; specificationId: number; pageNum?: number },
) {
  await specOfSite(ctx.db, query.siteId, query.specificationId);
  const scope: SiteScope = sitesToRead(ctx, 'stock:view');
  const where = eq(stockMove.specificationId, query.specificationId);
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db.select().from(stockMove).where(where).orderBy(desc(stockMove.id)),
    total: ctx.db.select({ n: count() }).from(stockMove).where(where),
    present: async (rows): Promise<StockMoveRow[]> => {
      const names = await operatorNames(
        ctx.db,
        rows.map((r) => r.operatorId),
      );
      return rows.map((r) => {
        const visible = scope === 'all' || scope.includes(r.siteId);
        return {
          id: r.id,
          specificationId: r.specificationId,
          siteId: r.siteId,
          delta: r.delta,
          stockAfter: r.stockAfter,
          reason: visible ? r.reason : '',
          operatorName: visible ? (names.get(r.operatorId) ?? '') : '其他站点',
          createdAt: r.createdAt.toISOString(),
        };
      });
    },
  });
}

/**
 * Adjusts a specification's stock with a reason: the guarded update and its ledger row
 * (inventory.ts) and the audit row, in one transaction; refused whole when the stock would
 * go below 0 or above MAX_STOCK.
 */
export async function adjustSpecStock(ctx: OperatorCtx, body: AdjustStockBody): Promise<StockSpec> {
  requireSiteAccess(ctx, 'stock:manage', body.siteId);
  const reason = requireReason(body.reason);
  if (body.delta === 0) throw badRequest(CATALOGUE_MSG.zeroDelta);
  const spec = await specOfSite(ctx.db, body.siteId, body.specificationId);
  const stock = await audited(ctx, async (tx, record) => {
    const after = await adjustStock(tx, {
      specificationId: body.specificationId,
      delta: body.delta,
      siteId: body.siteId,
      operatorId: ctx.operator.id,
      reason,
      max: MAX_STOCK,
    });
    if (after === undefined)
      throw failure(body.delta < 0 ? CATALOGUE_MSG.stockShort : CATALOGUE_MSG.stockTooHigh);
    await record({
      siteId: body.siteId,
      action: 'stock.adjust',
      entity: 'product_specification',
      entityId: body.specificationId,
      before: { stock: after - body.delta },
      after: { stock: after, delta: body.delta },
      reason,
    });
    return after;
  });
  return { ...spec, stock };
}
