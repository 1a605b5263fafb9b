import { randomInt } from 'node:crypto';
import {
  ACTIVITY_STATUS,
  type Chances,
  CODE,
  DEFAULT_ACTIVITY_CODE,
  type DrawResult,
  GIFT_STATUS,
  GIFT_STATUS_LABEL,
  type GiftRecord,
  LOTTERY_MSG,
  type LotteryRule,
  MSG,
  PRIZE_KIND,
  type Prize,
  type WhiteUserAnswer,
} from '@sitemall/contract';
import { and, asc, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { type RequestContext, transaction } from '../../context';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { getAddress } from '../address/address.service';
import type { MemberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import { findOrder } from '../order/order.service';
import { postEntry } from '../points/points.service';
import {
  mktActivity,
  mktChance,
  mktChanceGrant,
  mktDraw,
  mktGift,
  mktPrize,
  mktWhiteUser,
} from './activity.tables';
import { activityInfoOf } from './marketing';
import { mallDay, timingOf } from './timing';

/**
 * Marketing activities and the lottery (design promotions.md §5). A draw is one transaction:
 * a chance used (`used < granted`), the points cost debited through the ledger, a prize picked
 * with a cryptographic random number over the prizes in stock, its stock taken (one that just
 * ran out falls back to no prize), the draw recorded under the client's key and the gift.
 */

type ActivityRow = typeof mktActivity.$inferSelect;
type PrizeRow = typeof mktPrize.$inferSelect;

/** Days a physical prize waits to be claimed. */
const CLAIM_DAYS = 30;

const prizeOf = (p: PrizeRow): Prize => ({
  id: p.id,
  name: p.name,
  kind: p.kind,
  amount: p.amount,
  remaining: p.remaining,
});

async function activityWhere(ctx: RequestContext, where: ReturnType<typeof eq>): Promise<ActivityRow> {
  const [row] = await ctx.db
    .select()
    .from(mktActivity)
    .where(and(eq(mktActivity.siteId, siteOf(ctx).row.id), eq(mktActivity.enabled, true), where));
  if (!row) throw failure(LOTTERY_MSG.notFound);
  return row;
}
const byCode = (ctx: RequestContext, code?: string) =>
  activityWhere(ctx, eq(mktActivity.code, code ?? DEFAULT_ACTIVITY_CODE));

/** Spec sections 6 and 8: code 500 with an authErrUrl, which the storefront shows as invited-only. */
const invitedOnly = (siteId: number) =>
  new AppError(CODE.failure, MSG.invitedOnly, {
    authErrUrl: `/shoppingmall/home?siteId=${siteId}&authErr=invited`,
  });

/** A member may take part: invited when the activity is for white users only. */
async function admit(ctx: MemberCtx, a: ActivityRow): Promise<void> {
  if (a.audience !== 'invited') return;
  const phone = ctx.member.phone;
  const [found] = await ctx.db
    .select({ id: mktWhiteUser.id })
    .from(mktWhiteUser)
    .where(
      and(
        eq(mktWhiteUser.activityId, a.id),
        phone
          ? or(eq(mktWhiteUser.memberId, ctx.member.id), eq(mktWhiteUser.phone, phone))
          : eq(mktWhiteUser.memberId, ctx.member.id),
      ),
    )
    .limit(1);
  if (!found) throw invitedOnly(a.siteId);
}

/** Refused outside the activity's window, with its timing. */
function running(a: ActivityRow, now: Date): void {
  const timing = timingOf({ start: a.startAt, end: a.endAt }, now);
  if (timing.status === ACTIVITY_STATUS.notStarted)
    throw new AppError(CODE.failure, LOTTERY_MSG.notStarted, { timing });
  if (timing.status === ACTIVITY_STATUS.ended)
    throw new AppError(CODE.failure, LOTTERY_MSG.ended, { timing });
}

const periodKey = (a: ActivityRow, now: Date) => (a.period === 'day' ? mallDay(now) : 'activity');

/** The member's chance row of the period, created with the period's chances on first use. */
async function chanceRow(db: Db, a: ActivityRow, memberId: number, now: Date) {
  const key = { activityId: a.id, memberId, periodKey: periodKey(a, now) };
  await db
    .insert(mktChance)
    .values({ ...key, siteId: a.siteId, granted: a.chances })
    .onConflictDoNothing();
  return key;
}

async function chancesOf(db: Db, a: ActivityRow, memberId: number, now: Date): Promise<Chances> {
  const key = await chanceRow(db, a, memberId, now);
  const [row] = await db
    .select()
    .from(mktChance)
    .where(
      and(
        eq(mktChance.activityId, key.activityId),
        eq(mktChance.memberId, memberId),
        eq(mktChance.periodKey, key.periodKey),
      ),
    );
  const [share] = await db
    .select({ source: mktChanceGrant.source })
    .from(mktChanceGrant)
    .where(
      and(
        eq(mktChanceGrant.activityId, a.id),
        eq(mktChanceGrant.memberId, memberId),
        eq(mktChanceGrant.source, 'share'),
        eq(mktChanceGrant.sourceRef, key.periodKey),
      ),
    );
  const granted = row?.granted ?? 0;
  const used = row?.used ?? 0;
  return { granted, used, left: granted - used, shared: Boolean(share) };
}

/** lotteryApi.inMall: the activity exists on this site and runs now. */
export async function inMall(ctx: RequestContext, code?: string, now = new Date()): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: mktActivity.id })
    .from(mktActivity)
    .where(
      and(
        eq(mktActivity.siteId, siteOf(ctx).row.id),
        eq(mktActivity.code, code ?? DEFAULT_ACTIVITY_CODE),
        eq(mktActivity.enabled, true),
        sql`${mktActivity.startAt} <= ${now.toISOString()}::timestamptz`,
        gt(mktActivity.endAt, now),
      ),
    );
  return Boolean(row);
}

async function prizesOf(db: Db, activityId: number): Promise<PrizeRow[]> {
  return db
    .select()
    .from(mktPrize)
    .where(eq(mktPrize.activityId, activityId))
    .orderBy(asc(mktPrize.sort), asc(mktPrize.id));
}

/** lotteryApi.rule: rules, cost, chances and the prizes of the wheel. */
export async function lotteryRule(
  ctx: RequestContext,
  code?: string,
  now = new Date(),
): Promise<LotteryRule> {
  const a = await byCode(ctx, code);
  return {
    ...activityInfoOf(a, now),
    ruleHtml: a.ruleHtml,
    costPoints: a.costPoints,
    chances: a.chances,
    period: a.period,
    shareBonus: a.shareBonus,
    prizes: (await prizesOf(ctx.db, a.id)).map(prizeOf),
  };
}

/** lotteryApi.chance. */
export async function lotteryChances(ctx: MemberCtx, code?: string, now = new Date()): Promise<Chances> {
  const a = await byCode(ctx, code);
  await admit(ctx, a);
  return chancesOf(ctx.db, a, ctx.member.id, now);
}

/** Adds bonus chances for a source once (the grant row's key); false when granted before. */
async function grantOnce(
  ctx: MemberCtx,
  a: ActivityRow,
  source: string,
  ref: string,
  bonus: number,
  now: Date,
) {
  return transaction(ctx, async ({ db: tx }) => {
    const granted = await tx
      .insert(mktChanceGrant)
      .values({ activityId: a.id, memberId: ctx.member.id, source, sourceRef: ref })
      .onConflictDoNothing()
      .returning({ source: mktChanceGrant.source });
    if (granted.length === 0) return false;
    const key = await chanceRow(tx, a, ctx.member.id, now);
    await tx
      .update(mktChance)
      .set({ granted: sql`${mktChance.granted} + ${bonus}` })
      .where(
        and(
          eq(mktChance.activityId, key.activityId),
          eq(mktChance.memberId, key.memberId),
          eq(mktChance.periodKey, key.periodKey),
        ),
      );
    return true;
  });
}

/** lotteryApi.share: the share bonus, once per period. */
export async function shareLottery(ctx: MemberCtx, code?: string, now = new Date()) {
  const a = await byCode(ctx, code);
  await admit(ctx, a);
  running(a, now);
  const granted =
    a.shareBonus > 0 && (await grantOnce(ctx, a, 'share', periodKey(a, now), a.shareBonus, now));
  return { chances: await chancesOf(ctx.db, a, ctx.member.id, now), granted };
}

/** lotteryApi.addChance: one chance for a paid order of the member, once per order. */
export async function addOrderChance(
  ctx: MemberCtx,
  code: string | undefined,
  orderNo: string,
  now = new Date(),
) {
  const a = await byCode(ctx, code);
  await admit(ctx, a);
  running(a, now);
  const order = await findOrder(ctx, orderNo);
  if (!order.paidAt) throw failure(LOTTERY_MSG.orderNotPaid);
  if (!(await grantOnce(ctx, a, 'order', order.orderNo, 1, now))) throw failure(LOTTERY_MSG.orderUsed);
  return chancesOf(ctx.db, a, ctx.member.id, now);
}

/** A prize by weight, with a cryptographic random number; undefined when no weight is left. */
export function pickPrize<P extends { weight: number }>(
  prizes: readonly P[],
  random = randomInt,
): P | undefined {
  const total = prizes.reduce((s, p) => s + p.weight, 0);
  if (total <= 0) return undefined;
  let n = random(total);
  for (const p of prizes) {
    if (n < p.weight) return p;
    n -= p.weight;
  }
  return undefined;
}

/** The no-prize slot of the wheel (an activity without one answers a virtual one). */
const noPrize = (prizes: PrizeRow[]): Prize =>
  prizes.find((p) => p.kind === PRIZE_KIND.none) ?? {
    id: 0,
    name: LOTTERY_MSG.noPrize,
    kind: PRIZE_KIND.none,
    amount: 0,
    remaining: null,
  };

async function answerOfDraw(ctx: MemberCtx, a: ActivityRow, requestKey: string, now: Date) {
  const [draw] = await ctx.db
    .select()
    .from(mktDraw)
    .where(
      and(
        eq(mktDraw.activityId, a.id),
        eq(mktDraw.memberId, ctx.member.id),
        eq(mktDraw.requestKey, requestKey),
      ),
    );
  if (!draw) return undefined;
  const prizes = await prizesOf(ctx.db, a.id);
  const prize = prizes.find((p) => p.id === draw.prizeId);
  return resultOf(
    draw.id,
    prize ? prizeOf(prize) : noPrize(prizes),
    await chancesOf(ctx.db, a, ctx.member.id, now),
  );
}

/** Points a prize gives away, counted against the activity's budget. */
const budgetCostOf = (p: PrizeRow) => (p.kind === PRIZE_KIND.points ? p.amount : 0);

/**
 * Takes one piece of a prize in the draw's transaction: the activity's budget first (a guarded
 * `budget_used + cost <= budget`), then the prize's stock (`remaining > 0`); false when either
 * ran out, and then the budget taken is given back in the same transaction.
 */
async function takePrize(tx: Db, a: ActivityRow, p: PrizeRow): Promise<boolean> {
  const cost = budgetCostOf(p);
  if (a.budget !== null && cost > 0) {
    const within = await tx
      .update(mktActivity)
      .set({ budgetUsed: sql`${mktActivity.budgetUsed} + ${cost}` })
      .where(and(eq(mktActivity.id, a.id), sql`${mktActivity.budgetUsed} + ${cost} <= ${mktActivity.budget}`))
      .returning({ id: mktActivity.id });
    if (within.length === 0) return false;
  } else if (cost > 0) {
    // No cap: still counted, for the activity's results.
    await tx
      .update(mktActivity)
      .set({ budgetUsed: sql`${mktActivity.budgetUsed} + ${cost}` })
      .where(eq(mktActivity.id, a.id));
  }
  if (p.remaining === null) return true;
  const taken = await tx
    .update(mktPrize)
    .set({ remaining: sql`${mktPrize.remaining} - 1` })
    .where(and(eq(mktPrize.id, p.id), gt(mktPrize.remaining, 0)))
    .returning({ id: mktPrize.id });
  if (taken.length > 0) return true;
  if (cost > 0)
    await tx
      .update(mktActivity)
      .set({ budgetUsed: sql`${mktActivity.budgetUsed} - ${cost}` })
      .where(eq(mktActivity.id, a.id));
  return false;
}

const resultOf = (drawId: number, prize: Prize, chances: Chances): DrawResult => {
  const won = prize.kind !== PRIZE_KIND.none;
  return { drawId, won, prize, msg: won ? `恭喜获得${prize.name}` : prize.name, left: chances.left };
};

/** lotteryApi.start: one draw (see the module comment); a repeated requestId answers the first. */
export async function drawLottery(
  ctx: MemberCtx,
  code?: string,
  requestId?: string,
  now = new Date(),
): Promise<DrawResult> {
  const a = await byCode(ctx, code);
  await admit(ctx, a);
  running(a, now);
  if (requestId) {
    const earlier = await answerOfDraw(ctx, a, requestId, now);
    if (earlier) return earlier;
  }
  const key = await chanceRow(ctx.db, a, ctx.member.id, now);
  const member = { siteId: a.siteId, memberId: ctx.member.id };
  try {
    const { drawId, prize } = await transaction(ctx, async ({ db: tx }) => {
      const used = await tx
        .update(mktChance)
        .set({ used: sql`${mktChance.used} + 1` })
        .where(
          and(
            eq(mktChance.activityId, key.activityId),
            eq(mktChance.memberId, key.memberId),
            eq(mktChance.periodKey, key.periodKey),
            sql`${mktChance.used} < ${mktChance.granted}`,
          ),
        )
        .returning({ used: mktChance.used });
      if (used.length === 0) throw failure(LOTTERY_MSG.noChances);
      if (a.costPoints > 0)
        await postEntry(tx, {
          ...member,
          amount: -a.costPoints,
          type: 'pay',
          note: `抽奖：${a.name}`,
          requestKey: requestId ? `lottery:${a.id}:${requestId}` : undefined,
        });
      const prizes = await prizesOf(tx, a.id);
      const inStock = prizes.filter((p) => p.remaining === null || p.remaining > 0);
      let prize: Prize = noPrize(prizes);
      const picked = pickPrize(inStock);
      // A prize that ran out meanwhile, or past the budget, is no prize, never an error.
      if (picked && picked.kind !== PRIZE_KIND.none && (await takePrize(tx, a, picked)))
        prize = prizeOf(picked);
      const [draw] = await tx
        .insert(mktDraw)
        .values({
          ...member,
          activityId: a.id,
          prizeId: prize.id,
          costPoints: a.costPoints,
          requestKey: requestId ?? null,
        })
        .returning({ id: mktDraw.id });
      if (!draw) throw new Error('draw not recorded');
      if (prize.kind !== PRIZE_KIND.none) {
        const credited = prize.kind === PRIZE_KIND.points && prize.amount > 0;
        await tx.insert(mktGift).values({
          ...member,
          activityId: a.id,
          drawId: draw.id,
          prizeId: prize.id,
          status: credited ? GIFT_STATUS.claimed : GIFT_STATUS.toClaim,
          claimDeadline: credited ? null : new Date(now.getTime() + CLAIM_DAYS * 86_400_000),
        });
        if (credited)
          await postEntry(tx, {
            ...member,
            amount: prize.amount,
            type: 'issue',
            note: `抽奖奖品：${prize.name}`,
            requestKey: `lottery-prize:${draw.id}`,
          });
      }
      return { drawId: draw.id, prize };
    });
    return resultOf(drawId, prize, await chancesOf(ctx.db, a, ctx.member.id, now));
  } catch (error) {
    // A parallel request with the same key won (the draw's or the ledger's unique key): its answer.
    const earlier = requestId ? await answerOfDraw(ctx, a, requestId, now) : undefined;
    if (earlier) return earlier;
    throw error;
  }
}

/** Gifts of a member on a site (of one activity when given), newest first. */
async function giftsOf(db: Db, siteId: number, memberId: number, activityId?: number): Promise<GiftRecord[]> {
  const rows = await db
    .select({
      id: mktGift.id,
      activityName: mktActivity.name,
      prizeName: mktPrize.name,
      kind: mktPrize.kind,
      amount: mktPrize.amount,
      status: mktGift.status,
      createdAt: mktGift.createdAt,
      claimDeadline: mktGift.claimDeadline,
      address: mktGift.address,
    })
    .from(mktGift)
    .innerJoin(mktActivity, eq(mktActivity.id, mktGift.activityId))
    .innerJoin(mktPrize, eq(mktPrize.id, mktGift.prizeId))
    .where(
      and(
        eq(mktGift.siteId, siteId),
        eq(mktGift.memberId, memberId),
        activityId ? eq(mktGift.activityId, activityId) : undefined,
      ),
    )
    .orderBy(desc(mktGift.createdAt), desc(mktGift.id))
    .limit(100);
  return rows.map((r) => ({
    ...r,
    statusName: GIFT_STATUS_LABEL[r.status] ?? '',
    createTime: r.createdAt.toISOString(),
    claimDeadline: r.claimDeadline?.toISOString() ?? null,
    address: r.address ?? null,
  }));
}

/** lotteryApi.giftRecords: the member's prizes (of one activity when a code is given), newest first. */
export async function giftRecords(ctx: MemberCtx, code?: string): Promise<GiftRecord[]> {
  const activity = code ? await byCode(ctx, code) : undefined;
  return giftsOf(ctx.db, siteOf(ctx).row.id, ctx.member.id, activity?.id);
}

async function whiteUserOf(db: Db, a: ActivityRow, whiteCode: string) {
  const [row] = await db
    .select()
    .from(mktWhiteUser)
    .where(and(eq(mktWhiteUser.activityId, a.id), eq(mktWhiteUser.whiteCode, whiteCode)));
  return row;
}

/**
 * lotteryApi.createWhiteUser: a member arriving with a partner's invitation code takes
 * the invited user the operators loaded under that code (bound once: `member_id is null`). A
 * code not loaded answers the invited-only refusal; a code another member holds is refused.
 */
export async function createWhiteUser(
  ctx: MemberCtx,
  code: string | undefined,
  whiteCode: string,
): Promise<WhiteUserAnswer> {
  const a = await byCode(ctx, code);
  const row = await whiteUserOf(ctx.db, a, whiteCode);
  if (!row) throw invitedOnly(a.siteId);
  if (row.memberId === null)
    await ctx.db
      .update(mktWhiteUser)
      .set({ memberId: ctx.member.id })
      .where(and(eq(mktWhiteUser.id, row.id), isNull(mktWhiteUser.memberId)));
  const holder = (await whiteUserOf(ctx.db, a, whiteCode))?.memberId;
  if (holder !== ctx.member.id) throw failure(LOTTERY_MSG.whiteCodeTaken);
  return { activityId: a.id, code: a.code, whiteCode, invited: true };
}

/**
 * lotteryApi.giftRecordsByWhiteCode: the prizes of the activity won by the member holding the
 * invitation code (none yet when nobody took it); a code not loaded is the invited-only refusal.
 */
export async function giftRecordsByWhiteCode(
  ctx: RequestContext,
  code: string | undefined,
  whiteCode: string,
): Promise<GiftRecord[]> {
  const a = await byCode(ctx, code);
  const row = await whiteUserOf(ctx.db, a, whiteCode);
  if (!row) throw invitedOnly(a.siteId);
  return row.memberId === null ? [] : giftsOf(ctx.db, a.siteId, row.memberId, a.id);
}

/**
 * lotteryApi.claimGift: a physical prize to be claimed gets its delivery address and moves
 * 0 → 1, guarded on its status and deadline so a claim racing the expiry job or a second
 * claim moves it once.
 */
export async function claimGift(
  ctx: MemberCtx,
  giftId: number,
  addressId: number,
  now = new Date(),
): Promise<GiftRecord> {
  const siteId = siteOf(ctx).row.id;
  const [gift] = await ctx.db
    .select({ id: mktGift.id, kind: mktPrize.kind })
    .from(mktGift)
    .innerJoin(mktPrize, eq(mktPrize.id, mktGift.prizeId))
    .where(and(eq(mktGift.id, giftId), eq(mktGift.siteId, siteId), eq(mktGift.memberId, ctx.member.id)));
  if (!gift) throw failure(LOTTERY_MSG.giftNotFound);
  if (gift.kind !== PRIZE_KIND.product) throw failure(LOTTERY_MSG.giftNeedsNoAddress);
  const a = await getAddress(ctx, addressId);
  const address = {
    consignee: a.consignee,
    phone: a.phone,
    address: `${a.provinceName}${a.cityName}${a.districtName}${a.detail}`,
  };
  const moved = await ctx.db
    .update(mktGift)
    .set({ status: GIFT_STATUS.claimed, address, claimedAt: now })
    .where(
      and(
        eq(mktGift.id, gift.id),
        eq(mktGift.status, GIFT_STATUS.toClaim),
        sql`(${mktGift.claimDeadline} is null or ${mktGift.claimDeadline} > ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: mktGift.id });
  if (moved.length === 0) throw failure(LOTTERY_MSG.giftNotClaimable);
  const claimed = (await giftsOf(ctx.db, siteId, ctx.member.id)).find((g) => g.id === gift.id);
  if (!claimed) throw failure(LOTTERY_MSG.giftNotFound);
  return claimed;
}

/**
 * Prizes not claimed by their deadline move 0 → -1 (spec: gift records). One conditional
 * UPDATE, so parallel runs in several processes move each gift once. Answers how many moved.
 */
export async function expireGifts(db: Db, now = new Date()): Promise<number> {
  const moved = await db
    .update(mktGift)
    .set({ status: GIFT_STATUS.expired })
    .where(
      and(
        eq(mktGift.status, GIFT_STATUS.toClaim),
        sql`${mktGift.claimDeadline} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: mktGift.id });
  return moved.length;
}
