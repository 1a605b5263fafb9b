import { sql } from 'drizzle-orm';
import { copyAssortment } from '../../modules/catalog/site-copy';
import { copySiteRows } from '../../modules/site/site-copy';
import type { Db } from '../client';
import { demoProducts, seedLargeCatalog } from './catalog';

/**
 * The size of a large deployment (issue 16, "cost as data grows"): 1,000 sites, 1,000,000
 * products, and 10,000,000 points ledger entries. `factor` shrinks every count alike (a test
 * seeds a thousandth of it).
 */
export const SCALE = {
  sites: 1000,
  products: 1_000_000,
  /** Products each added site sells, a slice of the large catalogue of its own. */
  assortment: 1000,
  membersPerSite: 100,
  entriesPerMember: 100,
} as const;

/** Added sites are copies of this one (configuration, templates, regions, adverts, catalogue). */
const TEMPLATE_SITE = 1000;
/** Ids of added sites start here, far from the demo sites' ids. */
const FIRST_SITE_ID = 100_001;

export type ScaleCounts = { [K in keyof typeof SCALE]: number };

export function scaleCounts(factor = 1): ScaleCounts {
  const of = (n: number) => Math.max(1, Math.round(n * factor));
  return {
    sites: of(SCALE.sites),
    products: of(SCALE.products),
    assortment: of(SCALE.assortment),
    // Members and entries per member shrink by the square root each: entries shrink by the factor.
    membersPerSite: Math.max(1, Math.round(SCALE.membersPerSite * Math.sqrt(factor))),
    entriesPerMember: Math.max(2, Math.round(SCALE.entriesPerMember * Math.sqrt(factor))),
  };
}

type Progress = (step: string, done: number, total: number) => void;

const countOf = async (db: Db, query: ReturnType<typeof sql>) =>
  Number(((await db.execute(query)) as unknown as { rows: { n: string | number }[] }).rows[0]?.n ?? 0);

/**
 * Seeds the large deployment on top of the demo data, step by step, each step topping up to its
 * count (a second run adds nothing): sites, then the catalogue (sold whole on site 1000), then
 * each added site's slice of it at its own prices, then members with ledgers whose balances are
 * the sums of their entries (the books check holds). Set-based SQL in chunks, for the progress.
 */
export async function seedScale(db: Db, counts: ScaleCounts, progress: Progress = () => {}): Promise<void> {
  await addSites(db, counts.sites, progress);
  const products = await countOf(db, sql`select count(*) as n from product`);
  if (products < counts.products) {
    await seedLargeCatalog(db, {
      count: counts.products - products,
      siteId: TEMPLATE_SITE,
      log: (line) => {
        const done = Number(line.split(' ')[0]);
        progress('products', products + done, counts.products);
      },
    });
  }
  progress('products', counts.products, counts.products);
  await addAssortments(db, counts.assortment, progress);
  await addLedgers(db, counts, progress);
  await db.execute(sql`analyze`);
}

async function addSites(db: Db, target: number, progress: Progress) {
  const have = await countOf(db, sql`select count(*) as n from mall_site`);
  if (have >= target) progress('sites', target, target);
  for (let n = have, i = 0; n < target; i++) {
    const newSiteId = FIRST_SITE_ID + i;
    const made = await db.transaction(async (tx) => {
      const adverts = await copySiteRows(tx, {
        fromSiteId: TEMPLATE_SITE,
        newSiteId,
        siteName: `规模测试商城 ${newSiteId}`,
      });
      if (!adverts) return false;
      await copyAssortment(tx, { fromSiteId: TEMPLATE_SITE, newSiteId, adverts });
      return true;
    });
    if (made) progress('sites', ++n, target);
  }
}

/**
 * Each added site sells its own window of the large catalogue (site k from the k-th slice,
 * wrapping), in the category of the same name as on site 1000, at 1.00x to 1.19x of 1000's price,
 * besides the demo catalogue its copy of site 1000 sells.
 */
async function addAssortments(db: Db, perSite: number, progress: Progress) {
  const added = (
    (await db.execute(sql`select id from mall_site where id >= ${FIRST_SITE_ID} order by id`)) as unknown as {
      rows: { id: number }[];
    }
  ).rows.map((r) => r.id);
  // The large catalogue follows the demo catalogue's ids (seeded first, in one go): each added
  // site's window is fixed by its rank, so a second run finds every row in place.
  const large = (
    (await db.execute(
      sql`select min(id) + ${demoProducts().length} as lo, count(*) - ${demoProducts().length} as n from product`,
    )) as unknown as { rows: { lo: number; n: string }[] }
  ).rows[0];
  const span = Number(large?.n ?? 0);
  const lo = Number(large?.lo ?? 0);
  const CHUNK = 25;
  for (let i = 0; i < added.length; i += CHUNK) {
    const chunk = added.slice(i, i + CHUNK);
    const sites = sql.join(
      chunk.map((id, j) => sql`(${id}::int, ${((i + j) * perSite) % Math.max(1, span - perSite)}::int)`),
      sql`, `,
    );
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        with added(site_id, start) as (values ${sites}),
        slice as (
          select a.site_id, sp.product_id, sp.category_id, sp.price, sp.sales, sp.listed_at
          from added a
          join lateral (
            select * from site_product
            where site_id = ${TEMPLATE_SITE} and product_id >= ${lo} + a.start
            order by product_id limit ${perSite}
          ) sp on true
        ),
        cats as (
          select a.site_id, c.id as from_id, min(n.id) as to_id
          from added a
          join category c on c.site_id = ${TEMPLATE_SITE}
          join category n on n.site_id = a.site_id and n.cat_name = c.cat_name
          group by a.site_id, c.id
        )
        insert into site_product (site_id, product_id, category_id, price, sales, listed_at)
        select s.site_id, s.product_id, cats.to_id,
               s.price * (100 + s.site_id % 20) / 100, s.sales, s.listed_at
        from slice s join cats on cats.site_id = s.site_id and cats.from_id = s.category_id
        on conflict do nothing`);
      await tx.execute(sql`
        with added(site_id) as (values ${sql.join(
          chunk.map((id) => sql`(${id}::int)`),
          sql`, `,
        )})
        insert into site_price (site_id, specification_id, product_id, price)
        select sp.site_id, p.specification_id, p.product_id, p.price * (100 + sp.site_id % 20) / 100
        from added a
        join site_product sp on sp.site_id = a.site_id
        join site_price p on p.site_id = ${TEMPLATE_SITE} and p.product_id = sp.product_id
        on conflict do nothing`);
    });
    progress('assortments', Math.min(added.length, i + CHUNK), added.length);
  }
}

/**
 * Members of every site with ledgers: entry k of a member credits 10.00 (odd k) or spends 5.00
 * (even k), so the balance after entry k is ceil(k/2)·1000 − floor(k/2)·500 and never negative;
 * the account holds the last one. Entries go in member by member, k ascending (the running
 * balance follows the ids, as the books check reads it).
 */
async function addLedgers(db: Db, counts: ScaleCounts, progress: Progress) {
  const sites = (
    (await db.execute(sql`select id from mall_site order by id`)) as unknown as { rows: { id: number }[] }
  ).rows.map((r) => r.id);
  const m = counts.membersPerSite;
  const e = counts.entriesPerMember;
  const CHUNK = Math.max(1, Math.floor(500_000 / (m * e)));
  for (let i = 0; i < sites.length; i += CHUNK) {
    const chunk = sql.join(
      sites.slice(i, i + CHUNK).map((id) => sql`(${id}::int)`),
      sql`, `,
    );
    await db.transaction(async (tx) => {
      const made = (await tx.execute(sql`
        with sites(site_id) as (values ${chunk})
        insert into member (site_id, phone, status)
        select s.site_id, '199' || lpad(g::text, 8, '0'), 1
        from sites s, generate_series(1, ${m}) g
        on conflict do nothing
        returning id, site_id`)) as unknown as { rows: { id: number; site_id: number }[] };
      if (made.rows.length === 0) return;
      const members = sql.join(
        made.rows.map((r) => sql`(${r.site_id}::int, ${r.id}::int)`),
        sql`, `,
      );
      await tx.execute(sql`
        with made(site_id, member_id) as (values ${members})
        insert into points_entry (site_id, member_id, amount, balance_after, type, note, request_key, created_at)
        select site_id, member_id,
               case when k % 2 = 1 then 1000 else -500 end,
               ((k + 1) / 2) * 1000 - (k / 2) * 500,
               case when k % 2 = 1 then 'issue' else 'expire' end,
               '规模测试', 'scale:' || k,
               timestamptz '2025-01-01 00:00:00+08' + k * interval '3 days'
        from made, generate_series(1, ${e}) k
        order by site_id, member_id, k`);
      await tx.execute(sql`
        with made(site_id, member_id) as (values ${members})
        insert into points_account (site_id, member_id, balance)
        select site_id, member_id, ((${e} + 1) / 2) * 1000 - (${e} / 2) * 500 from made`);
    });
    progress('ledgers', Math.min(sites.length, i + CHUNK), sites.length);
  }
}
