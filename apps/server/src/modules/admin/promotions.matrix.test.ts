import { adminPromotionsApi as promo } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITES } from '../../db/demo/sites';
import type { TestApp } from '../../test/harness';
import { cardIssue } from '../packs/card-issue.tables';
import { packProduct } from '../packs/packs.tables';
import { vipLevel } from '../vip/vip.tables';
import { consoleApp, type MatrixRoute, matrixMismatches } from './admin.fixtures';

/**
 * Every promotion console route, as every demo operator, against every demo site: allowed
 * exactly when the demo permission table gives the route's permission on that site, else 403
 * with nothing written (no audit row: every console write leaves one). Allowed writes are
 * shaped to be refused on their own terms (unknown ids, a rank taken, a batch already
 * decided), so they change nothing either.
 */

let t: TestApp;
let tokens: Record<string, string>;
const batchOf = new Map<number, number>();
const NONE = 2_000_000_000;
const why = { reason: '矩阵测试' };

const ROUTES: MatrixRoute[] = [
  [promo.templates, (siteId) => ({ siteId })],
  [
    promo.createTemplate,
    (siteId) => ({
      siteId,
      name: '矩阵',
      kind: 'percent',
      value: 150,
      scopeType: 'all',
      claimMode: 'self',
      validMode: 'days',
      validDays: 1,
    }),
  ],
  [promo.moveTemplate, (siteId) => ({ siteId, templateId: NONE, action: 'pause', ...why })],
  [promo.issueVouchers, (siteId) => ({ siteId, templateId: NONE, accounts: '1', ...why })],
  [promo.pendingClaims, (siteId) => ({ siteId })],
  [promo.reviewClaims, (siteId) => ({ siteId, voucherIds: [NONE], approve: true })],
  [promo.budgets, (siteId) => ({ siteId })],
  [promo.updateBudget, (siteId) => ({ siteId, budgetId: NONE, limitAmount: 1, ...why })],
  [promo.packProducts, (siteId) => ({ siteId })],
  [promo.updatePackProduct, (siteId) => ({ siteId, productId: NONE, salePrice: 1, ...why })],
  [promo.cardBatches, (siteId) => ({ siteId })],
  [promo.createCardBatch, (siteId) => ({ siteId, productId: NONE, quantity: 1, ...why })],
  // A rejected batch of the site: allowed answers "state changed" / "nothing to export".
  [promo.approveCardBatch, (siteId) => ({ batchId: batchOf.get(siteId) })],
  [promo.rejectCardBatch, (siteId) => ({ batchId: batchOf.get(siteId), ...why })],
  [promo.exportCardBatch, (siteId) => ({ batchId: batchOf.get(siteId) })],
  [promo.cards, (siteId) => ({ siteId })],
  [promo.freezeCard, (siteId) => ({ siteId, cardId: NONE, frozen: true, ...why })],
  [promo.vipLevels, (siteId) => ({ siteId })],
  [promo.createVipLevel, (siteId) => ({ siteId, rank: 99, name: '矩阵', discountPct: 1 })],
  [promo.updateVipLevel, (siteId) => ({ siteId, levelId: NONE, discountPct: 1, ...why })],
  [promo.memberVip, (siteId) => ({ siteId, member: '19999999999' })],
  [promo.setMemberVip, (siteId) => ({ siteId, member: '19999999999', levelId: null, ...why })],
];

/** Creating routes change something when allowed; their 403 side is in the matrix too. */
const CREATING: MatrixRoute[] = [
  [promo.createBudget, (siteId) => ({ siteId, name: '矩阵预算', limitAmount: 1, ...why })],
  [
    promo.createPackProduct,
    (siteId) => ({ siteId, name: '矩阵卡', faceValue: 1, salePrice: 1, validityDays: 1 }),
  ],
];

beforeAll(async () => {
  ({ t, tokens } = await consoleApp());
  for (const site of DEMO_SITES) {
    const [product] = await t.db
      .insert(packProduct)
      .values({ siteId: site.id, name: '矩阵卡', faceValue: 100, salePrice: 100, validityDays: 1 })
      .returning();
    const [batch] = await t.db
      .insert(cardIssue)
      .values({
        siteId: site.id,
        packProductId: product?.id as number,
        quantity: 1,
        status: 'rejected',
        makerId: NONE,
        reason: '矩阵测试',
      })
      .returning();
    batchOf.set(site.id, batch?.id as number);
    await t.db
      .insert(vipLevel)
      .values({ siteId: site.id, rank: 99, name: '矩阵', discountPct: 1 })
      .onConflictDoNothing();
  }
});
afterAll(() => t.close());

describe('promotion console permission matrix', () => {
  it('answers each route allowed or 403 as the permission table says; a 403 writes nothing', async () => {
    const mismatches = await matrixMismatches(t, tokens, [...ROUTES, ...CREATING], {
      creating: CREATING.map(([e]) => e),
    });
    expect(mismatches).toEqual([]);
  });

  it('names a permission on every promotion route', () => {
    const unnamed = Object.values(promo).filter((e) => !/^[a-z]+:(view|manage)$/.test(e.operator ?? ''));
    expect(unnamed).toEqual([]);
  });
});
