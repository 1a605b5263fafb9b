import {
  mktActivity,
  mktPrize,
  mktWhiteUser,
  seckillActivity,
  seckillSession,
  seckillSku,
} from '../../modules/activity/activity.tables';
import type { Db } from '../client';
import { demoActivityGoods, demoWindow } from './activity-goods';

/** Four daily sessions covering the whole day, so a demo flash sale is always running. */
const SESSIONS = [
  { name: '早场', startTime: '00:00', endTime: '10:00' },
  { name: '午场', startTime: '10:00', endTime: '14:00' },
  { name: '晚场', startTime: '14:00', endTime: '20:00' },
  { name: '夜场', startTime: '20:00', endTime: '24:00' },
];
/** Activity stock of the demo items: plenty, some, and a last piece (sold out after one order). */
const STOCKS = [20, 10, 1];

/** A flash sale on each demo site: cheap physical goods at half price, one piece per member. */
export async function seedActivities(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const sessions = await db
      .insert(seckillSession)
      .values(SESSIONS.map((s, sort) => ({ ...s, siteId, sort })))
      .returning({ id: seckillSession.id });
    const [activity] = await db
      .insert(seckillActivity)
      .values({
        siteId,
        name: '限时秒杀',
        sessionIds: sessions.map((s) => s.id),
        ...demoWindow(now),
        memberLimit: 1,
        orderLimit: 1,
        expireMinutes: 5,
      })
      .returning({ id: seckillActivity.id });
    // Physical goods without a purchase limit, one specification each, enough stock behind the sale.
    const specs = await demoActivityGoods(db, siteId, {
      from: 'first',
      count: STOCKS.length,
      onePerProduct: true,
    });
    if (!activity || specs.length === 0) continue;
    await db.insert(seckillSku).values(
      specs.map((s, i) => ({
        activityId: activity.id,
        siteId,
        productId: s.productId,
        specificationId: s.specificationId,
        price: Math.round(s.price / 2),
        totalStock: STOCKS[i] ?? 1,
        stock: STOCKS[i] ?? 1,
      })),
    );
  }
}

const LOTTERY_RULE = `<p>每次抽奖消耗 1.00 积分，每天 3 次机会；分享活动每天再得 1 次。</p>
<p>积分奖品即时到账；实物奖品请在 30 天内领取。</p>`;
/** The turntable's prizes: weights out of 100, the earphones limited to 5. */
const PRIZES = [
  { name: '谢谢参与', kind: 'none', amount: 0, weight: 30, total: null },
  { name: '10 积分', kind: 'points', amount: 1000, weight: 40, total: null },
  { name: '50 积分', kind: 'points', amount: 5000, weight: 20, total: 100 },
  { name: '蓝牙耳机', kind: 'product', amount: 0, weight: 10, total: 5 },
] as const;

/**
 * The lottery of each demo site (code cj001, everyone) and an invited-only one (cj002) whose
 * white list names a partner's user, not the demo member: the demo shows the invited-only message.
 */
export async function seedLotteries(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const window = demoWindow(now);
    const [open, invited] = await db
      .insert(mktActivity)
      .values([
        {
          siteId,
          code: 'cj001',
          name: '幸运大转盘',
          ruleHtml: LOTTERY_RULE,
          ...window,
          costPoints: 100,
          chances: 3,
          period: 'day',
          shareBonus: 1,
        },
        {
          siteId,
          code: 'cj002',
          name: '受邀会员专享抽奖',
          ruleHtml: '<p>仅限受邀用户参加。</p>',
          ...window,
          audience: 'invited',
          chances: 1,
          period: 'activity',
        },
      ])
      .returning({ id: mktActivity.id });
    if (!open || !invited) continue;
    await db
      .insert(mktPrize)
      .values(
        [open, invited].flatMap((a) =>
          PRIZES.map((p, sort) => ({ ...p, siteId, activityId: a.id, sort, remaining: p.total })),
        ),
      );
    await db
      .insert(mktWhiteUser)
      .values({ siteId, activityId: invited.id, whiteCode: 'W0001', phone: '13900000001' });
  }
}
