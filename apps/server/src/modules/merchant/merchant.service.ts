import { access } from 'node:fs/promises';
import path from 'node:path';
import {
  ADMIN_MSG,
  MERCHANT_CONSOLE_MSG,
  MERCHANT_STATUS,
  MERCHANT_STATUS_LABEL,
  MERCHANT_TRANSITIONS,
  type MerchantApplication,
  type MerchantApplyInput,
  type MerchantStatusCode,
} from '@sitemall/contract';
import { and, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import { type RequestContext, transaction } from '../../context';
import type { Db } from '../../db/client';
import { badRequest, failure } from '../../lib/errors';
import { siteOf } from '../catalog/catalog.service';
import { requirePerson } from '../identity/identity.service';
import { storeUploadedImage } from '../media/uploads';
import { merchantApplication } from './merchant.tables';

export type MerchantApplicationRow = typeof merchantApplication.$inferSelect;
const MERCHANT_STATUSES = Object.values(MERCHANT_STATUS) as MerchantStatusCode[];

/** The url uploadLicence answers: an application may only name a stored licence. */
const LICENCE_URL = /^\/uploads\/licence\/[0-9a-f-]{36}\.(png|jpg|webp)$/;

/** A business licence image (not served publicly). */
export const uploadLicence = (ctx: RequestContext, dataDir: string, file: unknown) =>
  storeUploadedImage(ctx.db, dataDir, file, 'licence', '请选择要上传的营业执照图片（字段 file）');

const toApplication = (row: typeof merchantApplication.$inferSelect): MerchantApplication => ({
  applyId: row.id,
  shopName: row.shopName,
  companyName: row.companyName,
  status: row.status,
  statusText: MERCHANT_STATUS_LABEL[row.status] ?? '',
  rejectReason: row.rejectReason,
  createdAt: row.createdAt.toISOString(),
});

/** Submits a merchant application; one application under review per phone and site. */
export async function applyMerchant(
  ctx: RequestContext,
  dataDir: string,
  input: MerchantApplyInput,
): Promise<MerchantApplication> {
  const siteId = siteOf(ctx).row.id;
  if (!LICENCE_URL.test(input.licenceUrl)) throw badRequest('请先上传营业执照图片');
  try {
    await access(path.join(dataDir, input.licenceUrl));
  } catch {
    throw badRequest('营业执照图片不存在，请重新上传');
  }
  const text = (value: string) => value.trim();
  return transaction(ctx, async ({ db: tx }) => {
    const [pending] = await tx
      .select({ id: merchantApplication.id })
      .from(merchantApplication)
      .where(
        and(
          eq(merchantApplication.siteId, siteId),
          eq(merchantApplication.phone, input.phone),
          eq(merchantApplication.status, MERCHANT_STATUS.pending),
        ),
      )
      .for('update');
    if (pending) throw failure('该手机号已有审核中的入驻申请，请耐心等待审核结果');
    const [row] = await tx
      .insert(merchantApplication)
      .values({
        siteId,
        memberId: ctx.member?.id ?? null,
        phone: input.phone,
        contactName: text(input.contactName),
        companyName: text(input.companyName),
        shopName: text(input.shopName),
        creditCode: input.creditCode,
        licenceUrl: input.licenceUrl,
        mainCategory: text(input.mainCategory),
        intro: text(input.intro ?? ''),
      })
      .returning();
    return toApplication(row!);
  });
}

/**
 * Applications of the logged-in member, or of a phone, on this site, newest first. By phone it
 * answers a person only (an image code, or the member's own phone), and an unknown phone answers
 * like one without applications.
 */
export async function merchantStatus(
  ctx: RequestContext,
  input: { phone?: string; captchaId?: string; imageCode?: string },
): Promise<MerchantApplication[]> {
  const siteId = siteOf(ctx).row.id;
  const { phone } = input;
  if (!ctx.member && !phone) throw badRequest('请登录或填写申请时的手机号');
  await requirePerson(ctx, { siteId, ...input });
  const who: SQL[] = [];
  if (ctx.member) who.push(eq(merchantApplication.memberId, ctx.member.id));
  if (phone) who.push(eq(merchantApplication.phone, phone));
  if (who.length === 0) throw badRequest('请登录或填写申请时的手机号');
  const rows = await ctx.db
    .select()
    .from(merchantApplication)
    .where(and(eq(merchantApplication.siteId, siteId), or(...who)))
    .orderBy(desc(merchantApplication.createdAt), desc(merchantApplication.id))
    .limit(20);
  return rows.map(toApplication);
}

/**
 * The one way an application's status moves (MERCHANT_TRANSITIONS): a guarded update from the
 * status the table allows, in the caller's transaction. A decision lost to a concurrent one
 * (or on a decided application) answers `MERCHANT_CONSOLE_MSG.state` and changes nothing.
 */
export async function moveApplication(
  tx: Db,
  input: { siteId: number; applyId: number; to: MerchantStatusCode; reason: string },
): Promise<{ before: MerchantApplicationRow; after: MerchantApplicationRow }> {
  const from = MERCHANT_STATUSES.filter((status) => MERCHANT_TRANSITIONS[status].includes(input.to));
  const where = and(eq(merchantApplication.id, input.applyId), eq(merchantApplication.siteId, input.siteId));
  const [before] = await tx.select().from(merchantApplication).where(where).for('update');
  if (!before) throw failure(ADMIN_MSG.notFound);
  if (!from.includes(before.status as MerchantStatusCode)) throw failure(MERCHANT_CONSOLE_MSG.state);
  const [after] = await tx
    .update(merchantApplication)
    .set({
      status: input.to,
      rejectReason: input.to === MERCHANT_STATUS.rejected ? input.reason : '',
    })
    .where(and(where, inArray(merchantApplication.status, from)))
    .returning();
  if (!after) throw failure(MERCHANT_CONSOLE_MSG.state);
  return { before, after };
}
