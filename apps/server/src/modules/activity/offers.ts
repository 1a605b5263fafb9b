import type { Db } from '../../db/client';
import { type SpecificationOnSite, specificationsOnSite } from '../catalog/products';
import { timingOf } from './timing';

/** What every activity on one product specification has (group buy, bargain, benefit). */
interface ProductActivity {
  id: number;
  name: string;
  productId: number;
  specificationId: number;
  startAt: Date;
  endAt: Date;
}

/**
 * The storefront cards of such activities: the ones whose product is off sale on the site are
 * left out; each card has the activity, its product's name and image, its timing, and what
 * `more` adds from the activity and the product on the site.
 */
export async function productOffers<A extends ProductActivity, T>(
  db: Db,
  siteId: number,
  rows: readonly A[],
  now: Date,
  more: (a: A, spec: SpecificationOnSite) => T,
) {
  const specs = await specificationsOnSite(
    { db },
    siteId,
    rows.map((r) => r.specificationId),
  );
  return rows.flatMap((a) => {
    const spec = specs.get(a.specificationId);
    if (!spec?.isOnSale) return [];
    return [
      {
        id: a.id,
        name: a.name,
        productId: a.productId,
        specificationId: a.specificationId,
        productName: spec.name,
        image: spec.image,
        timing: timingOf({ start: a.startAt, end: a.endAt }, now),
        ...more(a, spec),
      },
    ];
  });
}
