import { ORDER_STATUS } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBooks } from '../../modules/admin/books';
import { memberByPhone } from '../../modules/identity/members';
import { mallOrder } from '../../modules/order/order.tables';
import { getBalance } from '../../modules/points/points.service';
import { providerCode, providerOrder } from '../../modules/provider/provider.tables';
import { codesInStock } from '../../modules/provider/provider-admin';
import { requireSite } from '../../modules/site/site.service';
import { type TestApp, testApp } from '../../test/harness';
import {
  PROVIDER_DEMO_CODE_SPEC,
  PROVIDER_DEMO_MEMBER,
  PROVIDER_DEMO_SITE,
  type ProviderDemo,
  seedProviderOrders,
} from './provider-orders';

describe('demo provider orders', () => {
  let t: TestApp;
  let made: ProviderDemo;
  beforeAll(async () => {
    // The worker runs by hand (as the seed does), not on its own after each payment.
    t = await testApp({ providerIssueOnPay: false });
    made = await seedProviderOrders({
      db: t.db,
      site: await requireSite(t.sites, PROVIDER_DEMO_SITE),
      providers: t.app.providers,
      wechat: t.app.payments.wechat,
      orderExpireMinutes: 30,
    });
  });
  afterAll(() => t.close());

  const stateOf = async (orderNo: string) => {
    const [order] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
    const [row] = await t.db.select().from(providerOrder).where(eq(providerOrder.orderNo, orderNo));
    return { order: order?.status, provider: row?.status, kind: row?.kind, reqId: row?.providerReqId ?? '' };
  };

  it('a ticket and a top-up issued, a refused top-up refunded, all of the demo member on 719', async () => {
    expect(await stateOf(made.ticket)).toMatchObject({
      order: ORDER_STATUS.completed,
      provider: 'issued',
      kind: 'movie',
    });
    expect(await stateOf(made.topup)).toMatchObject({
      order: ORDER_STATUS.completed,
      provider: 'issued',
      kind: 'topup',
    });
    const refused = await stateOf(made.refused);
    expect(refused).toMatchObject({ order: 51, provider: 'failed', kind: 'topup' });
    // The provider issued exactly the two (its statement is what the reconciliation reads).
    const sim = t.app.providers.simulator;
    expect(sim?.statement().map((l) => l.reqId)).toEqual([
      (await stateOf(made.ticket)).reqId,
      (await stateOf(made.topup)).reqId,
    ]);
    expect(sim?.record(refused.reqId)?.state).toBe('cancelled');

    // Paid with points: the ticket and the 30 yuan top-up spent, the refused 50 back.
    const member = await memberByPhone(t.db, PROVIDER_DEMO_SITE, PROVIDER_DEMO_MEMBER.phone);
    const [ticket] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, made.ticket));
    const balance = await getBalance(t, { siteId: PROVIDER_DEMO_SITE, memberId: member?.id ?? 0 });
    expect(balance).toBe(PROVIDER_DEMO_MEMBER.points - (ticket?.payAmount ?? 0) - 3_000);
  });

  it('a small e-code stock, sealed at rest', async () => {
    expect(made.codes).toBe(5);
    expect(await codesInStock(t.db, PROVIDER_DEMO_SITE, PROVIDER_DEMO_CODE_SPEC)).toBe(5);
    const rows = await t.db.select().from(providerCode);
    expect(JSON.stringify(rows)).not.toContain('DEMO-ECODE');
  });

  it('the books add up on demo data (账务全部相符)', async () => {
    const report = await checkBooks(t, 'all');
    expect(report.checks.length).toBeGreaterThan(0);
    expect(report.checks.flatMap((c) => c.problems)).toEqual([]);
  });
});
