import { packProduct } from '../../modules/packs/packs.tables';
import { vipLevel } from '../../modules/vip/vip.tables';
import { promotionBudget, voucherTemplate } from '../../modules/voucher/voucher.tables';
import type { Db } from '../client';

type TemplateInsert = typeof voucherTemplate.$inferInsert;

const DAY = 86_400_000;

/**
 * Demo voucher templates on 719 and 1000 (issue 13): one of each kind and claim mode, valid for a
 * year from seeding, so the centre, the code form and the checkout have something to show.
 */
export function demoVoucherTemplates(now = new Date(), budgetId?: number): TemplateInsert[] {
  const year = {
    validMode: 'fixed',
    validFrom: new Date(now.getTime() - DAY),
    validTo: new Date(now.getTime() + 365 * DAY),
  };
  const all = { type: 'all' as const, ids: [] };
  return [
    {
      siteId: 719,
      name: '新人专享券',
      kind: 'amount',
      value: 1000,
      threshold: 5000,
      scope: all,
      claimMode: 'self',
      ...year,
      totalLimit: 1000,
      perMemberLimit: 1,
    },
    {
      siteId: 719,
      name: '全场9折券',
      kind: 'percent',
      value: 10,
      cap: 2000,
      scope: all,
      claimMode: 'self',
      validMode: 'days',
      validDays: 30,
      perMemberLimit: 2,
    },
    {
      siteId: 719,
      name: '积分抵扣券',
      kind: 'points',
      value: 500,
      scope: all,
      stackGroup: 'points',
      claimMode: 'self',
      ...year,
      totalLimit: 5000,
      perMemberLimit: 3,
    },
    {
      siteId: 719,
      name: '限量大额券',
      kind: 'amount',
      value: 3000,
      threshold: 20000,
      scope: all,
      claimMode: 'self',
      ...year,
      totalLimit: 50,
      perMemberLimit: 1,
      ...(budgetId ? { budgetId } : {}),
    },
    {
      siteId: 719,
      name: '兑换码专享券',
      kind: 'amount',
      value: 500,
      scope: all,
      claimMode: 'code',
      code: 'WELCOME719',
      ...year,
      perMemberLimit: 1,
    },
    {
      siteId: 719,
      name: '员工专享券',
      kind: 'amount',
      value: 2000,
      threshold: 10000,
      scope: all,
      claimMode: 'review',
      ...year,
      perMemberLimit: 1,
    },
    {
      siteId: 1000,
      name: '满100减15',
      kind: 'amount',
      value: 1500,
      threshold: 10000,
      scope: all,
      claimMode: 'self',
      ...year,
      totalLimit: 500,
      perMemberLimit: 1,
    },
    {
      siteId: 1000,
      name: '全场95折',
      kind: 'percent',
      value: 5,
      cap: 1000,
      scope: all,
      claimMode: 'self',
      validMode: 'days',
      validDays: 15,
      perMemberLimit: 1,
    },
  ];
}

/** VIP levels of 719 and 1000 (no demo member holds one: the demo prices stay the list prices). */
export const DEMO_VIP_LEVELS = [
  { siteId: 719, rank: 1, name: '银卡会员', discountPct: 2 },
  { siteId: 719, rank: 2, name: '金卡会员', discountPct: 5 },
  { siteId: 719, rank: 3, name: '白金会员', discountPct: 8, thresholdType: 'partner' },
  { siteId: 1000, rank: 1, name: '普通VIP', discountPct: 3 },
  { siteId: 1000, rank: 2, name: '高级VIP', discountPct: 6 },
];

export async function seedPromotions(db: Db): Promise<void> {
  await db.insert(packProduct).values([
    { siteId: 719, name: '100积分礼品卡', faceValue: 10_000, salePrice: 10_000, validityDays: 365 },
    { siteId: 719, name: '500积分礼品卡', faceValue: 50_000, salePrice: 50_000, validityDays: 365 },
  ]);
  await db.insert(vipLevel).values(DEMO_VIP_LEVELS);
  const [budget] = await db
    .insert(promotionBudget)
    .values({ siteId: 719, name: '双十二大额券预算', limitAmount: 150_000 })
    .returning({ id: promotionBudget.id });
  await db.insert(voucherTemplate).values(demoVoucherTemplates(new Date(), budget?.id));
}
