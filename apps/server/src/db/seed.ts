import { TEMPLATE } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { seedOperators } from '../modules/admin/operators';
import { advert, mallSite, siteDistrict, siteTemplate } from '../modules/site/site.tables';
import type { Db } from './client';
import { seedActivities, seedLotteries } from './demo/activities';
import { seedBargains, seedBenefits } from './demo/bargains';
import { seedCatalog } from './demo/catalog';
import { seedGroupBuys } from './demo/group-buys';
import { DEMO_MEMBERS, seedDemoMember } from './demo/members';
import { DEMO_OPERATORS, DEMO_ROLES, DEMO_SITE_POLICIES } from './demo/operators';
import { seedPromotions } from './demo/promotions';
import { seedServiceDesk } from './demo/service-desk';
import { DEMO_SITES, type DemoSite } from './demo/sites';

/** Creates one site with its templates, districts and menu adverts. */
export async function seedSite(db: Db, site: DemoSite): Promise<void> {
  const { districts, head, foot, menuAdverts, ...row } = site;
  await db.transaction(async (tx) => {
    await tx.insert(mallSite).values(row);
    await tx.insert(siteTemplate).values([
      { siteId: site.id, templateName: TEMPLATE.head, value: head },
      { siteId: site.id, templateName: TEMPLATE.foot, value: foot },
    ]);
    if (districts.length > 0)
      await tx.insert(siteDistrict).values(districts.map((d) => ({ siteId: site.id, ...d })));
    if (menuAdverts.length > 0) {
      await tx
        .insert(advert)
        .values(menuAdverts.map((ad, sort) => ({ siteId: site.id, position: 'menu', sort, url: '', ...ad })));
    }
  });
}

/** Seeds the demo sites into an empty database; a database with any site is left alone. */
export async function seedDemo(db: Db): Promise<boolean> {
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(mallSite)) as [
    { count: number },
  ];
  if (count > 0) return false;
  for (const site of DEMO_SITES) await seedSite(db, site);
  await seedCatalog(db, DEMO_SITES);
  await seedPromotions(db);
  await seedActivities(db, [719, 1000]);
  await seedLotteries(db, [719, 1000]);
  await seedGroupBuys(db, [719, 1000]);
  await seedBargains(db, [719, 1000]);
  await seedBenefits(db, [719, 1000]);
  for (const demo of DEMO_MEMBERS) await seedDemoMember(db, demo);
  await seedOperators(db, DEMO_ROLES, DEMO_OPERATORS, DEMO_SITE_POLICIES);
  await seedServiceDesk(db);
  // The planner's statistics at once: without them (autovacuum off, or not come round yet)
  // PostgreSQL guesses, and found a listing of a site through a category index instead of its
  // primary key.
  await db.execute(sql`analyze`);
  return true;
}

/** Empties every application table (not the migration journal). */
export async function resetData(db: Db): Promise<void> {
  const result = await db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const rows = (result as unknown as { rows: { tablename: string }[] }).rows;
  if (rows.length === 0) return;
  const names = rows.map((r) => `"${r.tablename}"`).join(', ');
  await db.execute(sql.raw(`truncate ${names} restart identity cascade`));
}
