import { randomUUID } from 'node:crypto';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  LICENCE_MAX_BYTES,
  MERCHANT_STATUS,
  MERCHANT_STATUS_LABEL,
  type MerchantApplication,
} from '@sitemall/contract';
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { AppError, badRequest, failure } from '../../lib/errors';
import { requirePerson } from '../identity/identity.service';
import { siteOf } from './catalog.service';
import { merchantApplication, uploadDay } from './catalog.tables';

/** Bytes of uploads the whole deployment stores per UTC day: a cap on the disk an attack can fill. */
export const UPLOAD_DAY_QUOTA_BYTES = 200 * 1024 * 1024;
export const UPLOAD_QUOTA_MSG = '今日上传量已达上限，请明天再试';

/**
 * Books `bytes` against today's quota in one conditional upsert (exact under concurrency and
 * across processes); false when they do not fit.
 */
async function reserveUploadBytes(db: Db, bytes: number): Promise<boolean> {
  const booked = await db
    .insert(uploadDay)
    .values({ day: sql`(now() at time zone 'utc')::date`, bytes })
    .onConflictDoUpdate({
      target: uploadDay.day,
      set: { bytes: sql`${uploadDay.bytes} + excluded.bytes` },
      setWhere: sql`${uploadDay.bytes} + excluded.bytes <= ${UPLOAD_DAY_QUOTA_BYTES}`,
    })
    .returning({ bytes: uploadDay.bytes });
  return booked.length > 0;
}

/** Image types a licence may be, told by their first bytes, never by what the client claims. */
const IMAGE_TYPES: { ext: string; matches: (b: Buffer) => boolean }[] = [
  {
    ext: 'png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { ext: 'jpg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: 'webp',
    matches: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];
const LICENCE_URL = /^\/uploads\/licence\/[0-9a-f-]{36}\.(png|jpg|webp)$/;

export function imageTypeOf(data: Buffer): string | undefined {
  return IMAGE_TYPES.find((t) => data.length >= 12 && t.matches(data))?.ext;
}

/**
 * Stores an uploaded image under DATA_DIR/uploads/<folder>. The file must be a PNG, JPEG or
 * WebP by its magic bytes and at most 2 MB, and fit in today's upload quota. The answer's url
 * is the reference the form that needed the picture carries (licences, after-sales pictures).
 */
export async function storeUploadedImage(
  db: Db,
  dataDir: string,
  file: unknown,
  folder: string,
  missing: string,
): Promise<{ url: string }> {
  if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest(missing);
  if (file.length > LICENCE_MAX_BYTES) throw badRequest('图片不能超过 2 MB');
  const ext = imageTypeOf(file);
  if (!ext) throw badRequest('仅支持 PNG、JPG、WebP 格式的图片');
  if (!(await reserveUploadBytes(db, file.length))) throw new AppError(429, UPLOAD_QUOTA_MSG);
  const name = `${randomUUID()}.${ext}`;
  await mkdir(path.join(dataDir, 'uploads', folder), { recursive: true });
  await writeFile(path.join(dataDir, 'uploads', folder, name), file, { flag: 'wx' });
  return { url: `/uploads/${folder}/${name}` };
}

/** A business licence image (not served publicly). */
export const uploadLicence = (db: Db, dataDir: string, file: unknown) =>
  storeUploadedImage(db, dataDir, file, 'licence', '请选择要上传的营业执照图片（字段 file）');

const toApplication = (row: typeof merchantApplication.$inferSelect): MerchantApplication => ({
  applyId: row.id,
  shopName: row.shopName,
  companyName: row.companyName,
  status: row.status,
  statusText: MERCHANT_STATUS_LABEL[row.status] ?? '',
  rejectReason: row.rejectReason,
  createdAt: row.createdAt.toISOString(),
});

export interface MerchantApplyInput {
  phone: string;
  contactName: string;
  companyName: string;
  shopName: string;
  creditCode: string;
  licenceUrl: string;
  mainCategory: string;
  intro?: string;
}

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
  return ctx.db.transaction(async (tx) => {
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
