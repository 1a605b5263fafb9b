import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { product, productSpecification, siteProduct } from './catalog.tables';

/** Stock as the console reads it, always within a set of sites. */

/**
 * Specifications of products on sale on the sites with fewer than `below` pieces, the lowest
 * first (the dashboard's low-stock list).
 */
export async function lowStock(db: Db, scope: 'all' | number[], below: number, limit = 10) {
  return db
    .selectDistinct({
      productId: product.id,
      specificationId: productSpecification.id,
      name: product.name,
      specificationValue: productSpecification.specificationValue,
      stock: productSpecification.stock,
    })
    .from(productSpecification)
    .innerJoin(product, eq(product.id, productSpecification.productId))
    .innerJoin(siteProduct, eq(siteProduct.productId, product.id))
    .where(
      and(
        scope === 'all' ? undefined : inArray(siteProduct.siteId, scope),
        eq(siteProduct.isOnSale, true),
        lt(productSpecification.stock, below),
      ),
    )
    .orderBy(asc(productSpecification.stock), asc(productSpecification.id))
    .limit(limit);
}
