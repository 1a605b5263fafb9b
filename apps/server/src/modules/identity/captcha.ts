import { randomUUID } from 'node:crypto';
import { IDENTITY_MSG } from '@sitemall/contract';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { imageCode } from './identity.tables';

const TTL_SECONDS = 300;
const MAX_ANSWER = 16;

/** An image verification code: drawn as SVG, its answer kept server-side, 5 minutes, single use. */
export async function issueImageCode(
  ctx: RequestContext,
  siteId: number,
): Promise<{ captchaId: string; svg: string }> {
  const { db } = ctx;
  const captcha = svgCaptcha.create({
    size: 4,
    noise: 3,
    ignoreChars: '0oO1ilI',
    color: true,
    width: 120,
    height: 40,
  });
  const captchaId = randomUUID();
  await db.delete(imageCode).where(lt(imageCode.expiresAt, sql`now()`));
  await db.insert(imageCode).values({
    id: captchaId,
    siteId,
    answer: captcha.text.toLowerCase(),
    expiresAt: sql`now() + make_interval(secs => ${TTL_SECONDS})`,
  });
  return { captchaId, svg: captcha.data };
}

/** Checks and spends an image code: one try per image, right or wrong. */
export async function consumeImageCode(
  db: Db,
  input: { siteId: number; captchaId: string; answer: string },
): Promise<void> {
  const [row] = await db
    .delete(imageCode)
    .where(
      and(
        eq(imageCode.id, input.captchaId),
        eq(imageCode.siteId, input.siteId),
        gt(imageCode.expiresAt, sql`now()`),
      ),
    )
    .returning({ answer: imageCode.answer });
  const given = input.answer.trim().toLowerCase();
  if (!row || given.length === 0 || given.length > MAX_ANSWER || row.answer !== given) {
    throw badRequest(IDENTITY_MSG.wrongImageCode);
  }
}

/** The answer of a live image code, for the simulator only (automated demos and tests). */
export async function peekImageCode(db: Db, captchaId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ answer: imageCode.answer })
    .from(imageCode)
    .where(and(eq(imageCode.id, captchaId), gt(imageCode.expiresAt, sql`now()`)));
  return row?.answer;
}
