import type { Db } from '../../db/client';
import { chinaTime } from '../../lib/china-time';
import type { TestApp } from '../../test/harness';
import { createMember } from '../identity/members';
import { createSessionStore } from '../identity/sessions';
import { mktActivity, mktPrize, seckillActivity, seckillSession, seckillSku } from './activity.tables';
import { mallDay, sessionWindow } from './timing';

/** Test helpers of the activity module (real database). */

/** Today, China's day, as a window: a sale open all day is running whenever the test runs. */
export const wholeDay = (now = new Date()) =>
  sessionWindow(mallDay(now), { startTime: '00:00', endTime: '24:00' });

/** A console form's time `offsetMs` from now, as an operator types it (China time). */
export const consoleTime = (offsetMs: number) =>
  chinaTime(new Date(Date.now() + offsetMs), 'YYYY-MM-DD HH:mm:ss');

/** When a test's activity runs, where the test says; what it leaves out, `windowOf` fills in. */
export interface ActivityWindow {
  startAt?: Date;
  endAt?: Date;
}

/** A test's activity of one specification of a site. */
export interface SpecActivity extends ActivityWindow {
  siteId: number;
  productId: number;
  specificationId: number;
}

/** The window given, else from the start of today to `end` (today's end): running now. */
export function windowOf(given: ActivityWindow, end = wholeDay().end) {
  return { startAt: given.startAt ?? wholeDay().start, endAt: given.endAt ?? end };
}

/** A flash sale of one specification in an all-day session. */
export async function makeSale(
  db: Db,
  input: SpecActivity & { price: number; stock: number; memberLimit?: number; orderLimit?: number },
) {
  const [session] = await db
    .insert(seckillSession)
    .values({ siteId: input.siteId, name: '全天场', startTime: '00:00', endTime: '24:00' })
    .returning();
  const [activity] = await db
    .insert(seckillActivity)
    .values({
      siteId: input.siteId,
      name: '测试秒杀',
      sessionIds: [session!.id],
      ...windowOf(input),
      memberLimit: input.memberLimit ?? 1,
      orderLimit: input.orderLimit ?? 1,
      expireMinutes: 3,
    })
    .returning();
  await db.insert(seckillSku).values({
    activityId: activity!.id,
    siteId: input.siteId,
    productId: input.productId,
    specificationId: input.specificationId,
    price: input.price,
    totalStock: input.stock,
    stock: input.stock,
  });
  return { session: session!, activity: activity! };
}

let seq = 0;
/**
 * Members with a session, made directly (no password hashing, no login limits): for races
 * that need many buyers.
 */
export async function quickMembers(t: TestApp, siteId: number, count: number) {
  const sessions = createSessionStore();
  const out: { id: number; token: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    seq += 1;
    const phone = `137${String(process.pid % 1000).padStart(3, '0')}${String(seq).padStart(5, '0')}`;
    const { row } = await createMember(t.db, { siteId, phone });
    out.push({ id: row.id, token: await sessions.issue(t.db, { siteId, memberId: row.id }) });
  }
  return out;
}

/**
 * A lottery with its prizes (a no-prize slot of weight 0 unless given), running today, open to
 * all members unless told.
 */
export async function makeLottery(
  db: Db,
  input: ActivityWindow & {
    siteId: number;
    code: string;
    costPoints?: number;
    chances?: number;
    audience?: 'all' | 'invited';
    prizes: {
      name: string;
      kind: 'none' | 'points' | 'product';
      amount?: number;
      weight: number;
      total?: number;
    }[];
  },
) {
  const [activity] = await db
    .insert(mktActivity)
    .values({
      siteId: input.siteId,
      code: input.code,
      name: `测试抽奖 ${input.code}`,
      ...windowOf(input),
      audience: input.audience ?? 'all',
      costPoints: input.costPoints ?? 0,
      chances: input.chances ?? 3,
      period: 'activity',
    })
    .returning();
  const prizes = input.prizes.some((p) => p.kind === 'none')
    ? input.prizes
    : [{ name: '谢谢参与', kind: 'none' as const, weight: 0 }, ...input.prizes];
  await db.insert(mktPrize).values(
    prizes.map((p, sort) => ({
      siteId: input.siteId,
      activityId: activity!.id,
      name: p.name,
      kind: p.kind,
      amount: p.amount ?? 0,
      weight: p.weight,
      total: p.total ?? null,
      remaining: p.total ?? null,
      sort,
    })),
  );
  return activity!;
}

/** An invited-only lottery of one product prize, running today: only invited users may draw. */
export const invitedLottery = (db: Db, input: { siteId: number; code: string }) =>
  makeLottery(db, { ...input, audience: 'invited', prizes: [{ name: '台灯', kind: 'product', weight: 1 }] });
