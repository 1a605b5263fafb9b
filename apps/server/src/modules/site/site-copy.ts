import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { advert, mallSite, siteDistrict, siteTemplate } from './site.tables';

/**
 * A new site as a copy of another, in the caller's transaction: its configuration under a new
 * id and name, its templates, regions and adverts. Answers the new advert id of each copied
 * one (the catalogue copies the products of specials by it), or null when the id is taken.
 */
export async function copySiteRows(
  tx: Db,
  input: { fromSiteId: number; newSiteId: number; siteName: string },
): Promise<Map<number, number> | null> {
  const { fromSiteId, newSiteId } = input;
  const made = await tx.execute(sql`
    insert into ${mallSite} (id, site_name, hotline, spare_hotline, login_way, payway_conf, cash_unit,
      config_json, custom_service_pc_switch, is_usable, login_order, dingtalk_auth_switch,
      supply_config, advanced_config)
    select ${newSiteId}, ${input.siteName}, hotline, spare_hotline, login_way, payway_conf, cash_unit,
      config_json, custom_service_pc_switch, is_usable, login_order, dingtalk_auth_switch,
      supply_config, advanced_config
    from ${mallSite} where id = ${fromSiteId}
    on conflict (id) do nothing
    returning id`);
  if ((made as unknown as { rows: unknown[] }).rows.length === 0) return null;
  await tx.execute(sql`
    insert into ${siteTemplate} (site_id, template_name, value)
    select ${newSiteId}, template_name, value from ${siteTemplate} where site_id = ${fromSiteId}`);
  await tx.execute(sql`
    insert into ${siteDistrict} (site_id, code, name)
    select ${newSiteId}, code, name from ${siteDistrict} where site_id = ${fromSiteId}`);
  const adverts = await tx
    .select()
    .from(advert)
    .where(and(eq(advert.siteId, fromSiteId)));
  const ids = new Map<number, number>();
  for (const { id, siteId: _, ...rest } of adverts) {
    const [copy] = await tx
      .insert(advert)
      .values({ ...rest, siteId: newSiteId })
      .returning({ id: advert.id });
    if (copy) ids.set(id, copy.id);
  }
  return ids;
}
