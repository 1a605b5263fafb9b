import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ADMIN_MSG,
  type AdminMerchantApplication,
  adminMerchantApi as api,
  MERCHANT_CONSOLE_MSG,
  MERCHANT_STATUS_LABEL,
  type MerchantDecisionBody,
} from '@sitemall/contract';
import { and, count, desc, eq, or } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { containsText } from '../../lib/like';
import { emptyPage, listPage } from '../../lib/paging';
import { serve } from '../../lib/serve';
import { type OperatorCtx, operatorOf, requireSiteAccess, sitesToRead } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { inSites, noSites } from '../admin/console-kit';
import { imageTypeOf } from '../media/uploads';
import { type MerchantApplicationRow, moveApplication } from './merchant.service';
import { merchantApplication } from './merchant.tables';

/**
 * Merchant applications in the console: list within the operator's `sites` scope, one with its
 * licence picture, and the decision through `moveApplication`, audited in its transaction.
 */

const view = (row: MerchantApplicationRow): AdminMerchantApplication => ({
  applyId: row.id,
  siteId: row.siteId,
  memberId: row.memberId,
  phone: row.phone,
  contactName: row.contactName,
  companyName: row.companyName,
  shopName: row.shopName,
  creditCode: row.creditCode,
  mainCategory: row.mainCategory,
  intro: row.intro,
  status: row.status,
  statusText: MERCHANT_STATUS_LABEL[row.status] ?? '',
  rejectReason: row.rejectReason,
  hasLicence: row.licenceUrl !== '',
  createdAt: row.createdAt.toISOString(),
});

async function findApplications(
  ctx: OperatorCtx,
  query: { siteId?: number; status?: number; keyword?: string; pageNum?: number },
) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'sites:view', query.siteId);
  if (noSites(scope)) return emptyPage<AdminMerchantApplication>(pageNum);
  const keyword = query.keyword?.trim();
  const a = merchantApplication;
  const where = and(
    inSites(a.siteId, scope),
    query.status === undefined ? undefined : eq(a.status, query.status),
    keyword
      ? or(
          containsText(a.shopName, keyword),
          containsText(a.companyName, keyword),
          containsText(a.contactName, keyword),
          containsText(a.phone, keyword),
          containsText(a.creditCode, keyword),
        )
      : undefined,
  );
  return listPage({
    pageNum,
    rows: ctx.db.select().from(a).where(where).orderBy(desc(a.id)),
    total: ctx.db.select({ n: count() }).from(a).where(where),
    present: (rows) => rows.map(view),
  });
}

/** The application of the site (another site's id answers "not found", never its row). */
async function applicationOfSite(ctx: OperatorCtx, siteId: number, applyId: number) {
  requireSiteAccess(ctx, 'sites:view', siteId);
  const [row] = await ctx.db
    .select()
    .from(merchantApplication)
    .where(and(eq(merchantApplication.id, applyId), eq(merchantApplication.siteId, siteId)));
  if (!row) throw failure(ADMIN_MSG.notFound);
  return row;
}

async function decide(ctx: OperatorCtx, body: MerchantDecisionBody) {
  requireSiteAccess(ctx, 'sites:manage', body.siteId);
  const reason = requireReason(body.reason);
  const moved = await audited(ctx, async (tx, record) => {
    const { before, after } = await moveApplication(tx, { ...body, to: body.status, reason });
    await record({
      siteId: body.siteId,
      action: body.status === 1 ? 'merchant.approve' : 'merchant.reject',
      entity: 'merchant_application',
      entityId: after.id,
      before: { status: before.status, rejectReason: before.rejectReason },
      after: { status: after.status, rejectReason: after.rejectReason },
      reason,
    });
    return after;
  });
  return view(moved);
}

export const merchantConsole =
  (dataDir: string | undefined): FastifyPluginAsync =>
  async (app) => {
    serve(app, api.applications, async (req) => ok(await findApplications(operatorOf(req), req.query)));
    serve(app, api.application, async (req) =>
      ok(view(await applicationOfSite(operatorOf(req), req.query.siteId, req.query.applyId))),
    );
    serve(app, api.licence, async (req, reply) => {
      const row = await applicationOfSite(operatorOf(req), req.query.siteId, req.query.applyId);
      // The url was checked against LICENCE_URL when the application was made.
      const file = dataDir
        ? await readFile(path.join(dataDir, row.licenceUrl)).catch(() => undefined)
        : undefined;
      const type = file && imageTypeOf(file);
      if (!file || !type) throw failure(MERCHANT_CONSOLE_MSG.noLicence);
      return reply
        .header('content-type', `image/${type === 'jpg' ? 'jpeg' : type}`)
        .header('cache-control', 'private, no-store')
        .send(file);
    });
    serve(app, api.decide, async (req) =>
      ok(await decide(operatorOf(req), req.body), req.body.status === 1 ? '已通过' : '已驳回'),
    );
  };
