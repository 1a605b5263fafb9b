import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LICENCE_MAX_BYTES } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, badRequest } from '../../lib/errors';
import { uploadDay } from './media.tables';

/**
 * Images shoppers upload (merchant licences, after-sales pictures): checked by their first
 * bytes, bounded in size and by a daily quota for the whole deployment.
 */

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
