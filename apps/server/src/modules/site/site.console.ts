import { isDeepStrictEqual } from 'node:util';
import {
  ADMIN_MSG,
  ADVERT_LINK,
  type AdminAdvert,
  adminTemplatesApi as api,
  type DeleteAdvertBody,
  type FootTemplate,
  type HeadTemplate,
  isPictureUrl,
  type OrderAdvertsBody,
  type SaveAdvertBody,
  type SaveTemplatesBody,
  type SiteTemplates,
  TEMPLATE,
  TEMPLATES_MSG,
} from '@sitemall/contract';
import { and, asc, eq, max } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { ok } from '../../lib/envelope';
import { badRequest, failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { type OperatorCtx, operatorOf, requireSiteAccess } from '../admin/admin.service';
import { audited, type RecordAudit } from '../admin/audit';
import { rowOnSite } from '../admin/console-kit';
import { announceSiteChange, type SiteCache, siteNotFound } from './site.service';
import { advert, mallSite, siteTemplate } from './site.tables';
import { lockSiteRow } from './site-admin';

/**
 * The console's templates and adverts of a site: the head and foot templates (site_template)
 * and the adverts, whose enabled menu ones are the menu template. Each write is audited with
 * its before and after values in its transaction, and announced with the site NOTIFY so every
 * process's storefront reads the new templates on its next request.
 */

const EMPTY_HEAD: HeadTemplate = { photo: '', note: '' };
const EMPTY_FOOT: FootTemplate = { list: [], photo: '', note: '' };

const toAdminAdvert = ({ siteId: _, ...row }: typeof advert.$inferSelect): AdminAdvert => row;

async function readTemplates(ctx: RequestContext, siteId: number): Promise<SiteTemplates> {
  const { db } = ctx;
  const [row] = await db.select().from(mallSite).where(eq(mallSite.id, siteId));
  if (!row) throw siteNotFound();
  const [templates, adverts] = await Promise.all([
    db.select().from(siteTemplate).where(eq(siteTemplate.siteId, siteId)),
    db
      .select()
      .from(advert)
      .where(eq(advert.siteId, siteId))
      .orderBy(asc(advert.position), asc(advert.sort), asc(advert.id)),
  ]);
  const value = (name: string) => templates.find((t) => t.templateName === name)?.value;
  return {
    siteId,
    head: { ...EMPTY_HEAD, ...(value(TEMPLATE.head) as HeadTemplate | undefined) },
    foot: { ...EMPTY_FOOT, ...(value(TEMPLATE.foot) as FootTemplate | undefined) },
    adverts: adverts.map(toAdminAdvert),
    site: {
      siteName: row.siteName,
      hotline: row.hotline,
      hideServicePhone: row.configJson.hideServicePhone === 'Y',
      serviceInfo: row.configJson.serviceInfo === 'Y',
      serviceHours: row.configJson.serviceHours ?? '',
      logo: row.advancedConfig.logo,
      slogan: row.advancedConfig.slogan,
      primaryColor: row.advancedConfig.primaryColor,
    },
  };
}

function requirePictures(...urls: string[]) {
  if (!urls.every(isPictureUrl)) throw badRequest(TEMPLATES_MSG.badPicture);
}

function checkTemplates(body: SaveTemplatesBody): { head?: HeadTemplate; foot?: FootTemplate } {
  const head = body.head && { photo: body.head.photo.trim(), note: body.head.note.trim() };
  const foot = body.foot && {
    list: body.foot.list.map((item) => ({ src: item.src.trim(), name: item.name.trim() })),
    photo: body.foot.photo.trim(),
    note: body.foot.note.trim(),
  };
  if (head) requirePictures(head.photo);
  if (foot) {
    requirePictures(foot.photo, ...foot.list.map((item) => item.src));
    if (foot.list.some((item) => !item.name)) throw badRequest(TEMPLATES_MSG.blankFeature);
  }
  return { head, foot };
}

/**
 * After the access check, within an audited write on the site: locks the site row (edits of one site's templates run
 * one after another), runs `write`, announces the change, and answers the site's templates.
 */
async function onSite(
  ctx: OperatorCtx,
  sites: SiteCache,
  siteId: number,
  write: (tx: Db, record: RecordAudit) => Promise<void>,
): Promise<SiteTemplates> {
  requireSiteAccess(ctx, 'sites:manage', siteId);
  const answer = await audited(ctx, async (tx, record) => {
    if (!(await lockSiteRow(tx, siteId))) throw siteNotFound();
    await write(tx, record);
    await announceSiteChange(tx, siteId);
    return readTemplates({ db: tx }, siteId);
  });
  // This process drops its copy now; the others on the NOTIFY.
  sites.invalidate(siteId);
  return answer;
}

function saveTemplates(ctx: OperatorCtx, sites: SiteCache, body: SaveTemplatesBody) {
  return onSite(ctx, sites, body.siteId, async (tx, record) => {
    const next = checkTemplates(body);
    const before = await readTemplates({ db: tx }, body.siteId);
    for (const [key, name] of [
      ['head', TEMPLATE.head],
      ['foot', TEMPLATE.foot],
    ] as const) {
      const value = next[key];
      if (!value || isDeepStrictEqual(value, before[key])) continue;
      await tx
        .insert(siteTemplate)
        .values({ siteId: body.siteId, templateName: name, value })
        .onConflictDoUpdate({ target: [siteTemplate.siteId, siteTemplate.templateName], set: { value } });
      await record({
        siteId: body.siteId,
        action: 'site.template',
        entity: 'site_template',
        entityId: `${body.siteId}:${name}`,
        before: before[key],
        after: value,
        reason: body.reason?.trim() ?? '',
      });
    }
  });
}

function checkAdvert(body: SaveAdvertBody) {
  const fields = {
    position: body.position,
    type: body.type,
    title: body.title.trim(),
    adName: body.adName.trim(),
    // A special list (type 1) opens the advert's products: it has no link of its own.
    url: body.type === 2 ? body.url.trim() : '',
    image: body.image.trim(),
    isEnabled: body.isEnabled,
  };
  if (!fields.title || !fields.adName) throw badRequest(TEMPLATES_MSG.blank);
  if (fields.type === 2 && !ADVERT_LINK.test(fields.url)) throw badRequest(TEMPLATES_MSG.badLink);
  requirePictures(fields.image);
  return fields;
}

function saveAdvert(ctx: OperatorCtx, sites: SiteCache, body: SaveAdvertBody) {
  const { siteId } = body;
  return onSite(ctx, sites, siteId, async (tx, record) => {
    const fields = checkAdvert(body);
    const entry = { siteId, action: 'advert.save', entity: 'advert' };
    if (body.id === undefined) {
      const [last] = await tx
        .select({ sort: max(advert.sort) })
        .from(advert)
        .where(and(eq(advert.siteId, siteId), eq(advert.position, fields.position)));
      const [made] = await tx
        .insert(advert)
        .values({ siteId, ...fields, sort: (last?.sort ?? -1) + 1 })
        .returning();
      if (!made) throw failure(ADMIN_MSG.notFound);
      return record({ ...entry, action: 'advert.create', entityId: made.id, after: toAdminAdvert(made) });
    }
    const row = await rowOnSite(tx, advert, siteId, body.id);
    const current = row as unknown as Record<string, unknown>;
    const changed = Object.entries(fields).filter(([key, value]) => current[key] !== value);
    if (changed.length === 0) return;
    await tx.update(advert).set(Object.fromEntries(changed)).where(eq(advert.id, row.id));
    await record({
      ...entry,
      entityId: row.id,
      before: Object.fromEntries(changed.map(([key]) => [key, current[key]])),
      after: Object.fromEntries(changed),
    });
  });
}

function orderAdverts(ctx: OperatorCtx, sites: SiteCache, body: OrderAdvertsBody) {
  const { siteId, position, ids } = body;
  return onSite(ctx, sites, siteId, async (tx, record) => {
    const rows = await tx
      .select({ id: advert.id })
      .from(advert)
      .where(and(eq(advert.siteId, siteId), eq(advert.position, position)))
      .orderBy(asc(advert.sort), asc(advert.id));
    const before = rows.map((r) => r.id);
    const same = new Set(ids).size === ids.length && ids.length === before.length;
    if (!same || !ids.every((id) => before.includes(id))) throw failure(TEMPLATES_MSG.orderChanged);
    if (isDeepStrictEqual(before, ids)) return;
    for (const [sort, id] of ids.entries()) await tx.update(advert).set({ sort }).where(eq(advert.id, id));
    await record({
      siteId,
      action: 'advert.order',
      entity: 'advert',
      entityId: `${siteId}:${position}`,
      before: { ids: before },
      after: { ids },
    });
  });
}

/**
 * Deletes an advert of the site (its special list's products go with it, by the foreign key);
 * the audit row keeps what it was. A DELETE on site and id: of two deletes one finds it.
 */
function deleteAdvert(ctx: OperatorCtx, sites: SiteCache, body: DeleteAdvertBody) {
  const { siteId, id } = body;
  return onSite(ctx, sites, siteId, async (tx, record) => {
    const [gone] = await tx
      .delete(advert)
      .where(and(eq(advert.siteId, siteId), eq(advert.id, id)))
      .returning();
    if (!gone) throw failure(ADMIN_MSG.notFound);
    await record({
      siteId,
      action: 'advert.delete',
      entity: 'advert',
      entityId: id,
      before: toAdminAdvert(gone),
      after: null,
      reason: body.reason?.trim() ?? '',
    });
  });
}

export const siteConsole =
  (sites: SiteCache): FastifyPluginAsync =>
  async (app) => {
    serve(app, api.templates, async (req) => {
      const ctx = operatorOf(req);
      requireSiteAccess(ctx, 'sites:view', req.query.siteId);
      return ok(await readTemplates(ctx, req.query.siteId));
    });
    serve(app, api.saveTemplates, async (req) =>
      ok(await saveTemplates(operatorOf(req), sites, req.body), '模板已保存，商城前台将显示新内容'),
    );
    serve(app, api.saveAdvert, async (req) =>
      ok(await saveAdvert(operatorOf(req), sites, req.body), '广告已保存'),
    );
    serve(app, api.orderAdverts, async (req) =>
      ok(await orderAdverts(operatorOf(req), sites, req.body), '广告顺序已保存'),
    );
    serve(app, api.deleteAdvert, async (req) =>
      ok(await deleteAdvert(operatorOf(req), sites, req.body), '广告已删除'),
    );
  };
