import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  advertProduct,
  category,
  categoryGroup,
  categoryLabel,
  sitePrice,
  siteProduct,
  tinyPage,
} from './catalog.tables';

/** Old id → new id, as a VALUES list SQL can join on (one statement however many rows). */
const mapping = (ids: Map<number, number>) =>
  sql.join(
    [...ids].map(([from, to]) => sql`(${from}::int, ${to}::int)`),
    sql`, `,
  );

/**
 * The catalogue of a site copied to a new one, in the caller's transaction: its category tree
 * (labels, groups, categories under new ids), what it sells at which prices (on sale as the
 * source is), the products of its specials (`adverts`: old advert id → new) and its micro
 * pages. Sales counts start at zero. Answers how many products the new site sells.
 */
export async function copyAssortment(
  tx: Db,
  input: { fromSiteId: number; newSiteId: number; adverts: Map<number, number> },
): Promise<number> {
  const { fromSiteId, newSiteId } = input;
  const labels = new Map<number, number>();
  for (const { id, siteId: _, ...rest } of await tx
    .select()
    .from(categoryLabel)
    .where(eq(categoryLabel.siteId, fromSiteId))
    .orderBy(asc(categoryLabel.id))) {
    const [copy] = await tx
      .insert(categoryLabel)
      .values({ ...rest, siteId: newSiteId })
      .returning({ id: categoryLabel.id });
    if (copy) labels.set(id, copy.id);
  }
  const groups = new Map<number, number>();
  for (const { id, siteId: _, labelId, ...rest } of await tx
    .select()
    .from(categoryGroup)
    .where(eq(categoryGroup.siteId, fromSiteId))
    .orderBy(asc(categoryGroup.id))) {
    const newLabel = labels.get(labelId);
    if (newLabel === undefined) continue;
    const [copy] = await tx
      .insert(categoryGroup)
      .values({ ...rest, siteId: newSiteId, labelId: newLabel })
      .returning({ id: categoryGroup.id });
    if (copy) groups.set(id, copy.id);
  }
  const categories = new Map<number, number>();
  for (const { id, siteId: _, groupId, ...rest } of await tx
    .select()
    .from(category)
    .where(eq(category.siteId, fromSiteId))
    .orderBy(asc(category.id))) {
    const newGroup = groups.get(groupId);
    if (newGroup === undefined) continue;
    const [copy] = await tx
      .insert(category)
      .values({ ...rest, siteId: newSiteId, groupId: newGroup })
      .returning({ id: category.id });
    if (copy) categories.set(id, copy.id);
  }
  let products = 0;
  if (categories.size > 0) {
    const listed = await tx.execute(sql`
      insert into ${siteProduct} (site_id, product_id, category_id, price, limit_num, is_on_sale)
      select ${newSiteId}, sp.product_id, m.to_id, sp.price, sp.limit_num, sp.is_on_sale
      from ${siteProduct} sp join (values ${mapping(categories)}) as m(from_id, to_id) on m.from_id = sp.category_id
      where sp.site_id = ${fromSiteId}
      returning product_id`);
    products = (listed as unknown as { rows: unknown[] }).rows.length;
    await tx.execute(sql`
      insert into ${sitePrice} (site_id, specification_id, product_id, price)
      select ${newSiteId}, p.specification_id, p.product_id, p.price
      from ${sitePrice} p join ${siteProduct} sp on sp.site_id = ${newSiteId} and sp.product_id = p.product_id
      where p.site_id = ${fromSiteId}`);
  }
  if (input.adverts.size > 0)
    await tx.execute(sql`
      insert into ${advertProduct} (advert_id, product_id, sort)
      select m.to_id, ap.product_id, ap.sort
      from ${advertProduct} ap join (values ${mapping(input.adverts)}) as m(from_id, to_id) on m.from_id = ap.advert_id`);
  await tx.execute(sql`
    insert into ${tinyPage} (site_id, title, blocks, is_home)
    select ${newSiteId}, title, blocks, is_home from ${tinyPage} where site_id = ${fromSiteId}`);
  return products;
}
