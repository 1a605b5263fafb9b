import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { copySiteRows } from '../site/site-copy';
import { ensureSimulatedMerchants } from './merchants';
import { payMerchant } from './payment.tables';

describe('simulated merchants (demo mode)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('gives every new WeChat site a merchant with one key per call, however many sites', async () => {
    // Three copies of 1000, which offers WeChat Pay: three sites without a merchant.
    const added = [900_001, 900_002, 900_003];
    for (const newSiteId of added)
      await t.db.transaction((tx) =>
        copySiteRows(tx, { fromSiteId: 1000, newSiteId, siteName: `副本 ${newSiteId}` }),
      );
    const apiBase = 'http://127.0.0.1:1/simulator/wechatpay';
    await ensureSimulatedMerchants(t.db, { apiBase, signers: t.secrets.wechatpaySimSigners });

    const made = await t.db.select().from(payMerchant).where(inArray(payMerchant.siteId, added));
    expect(made.map((m) => m.siteId).sort()).toEqual(added);
    // Per site: merchant number, serial and APIv3 key; one RSA key for the call (start-up stays
    // flat in the number of sites).
    expect(new Set(made.map((m) => m.mchid)).size).toBe(3);
    expect(new Set(made.map((m) => m.serialNo)).size).toBe(3);
    expect(new Set(made.map((m) => m.apiV3Key)).size).toBe(3);
    expect(new Set(made.map((m) => m.privateKeyPem)).size).toBe(1);

    // Again: nothing new, nothing changed.
    const merchants = () => t.db.select().from(payMerchant).orderBy(payMerchant.siteId);
    const before = await merchants();
    await ensureSimulatedMerchants(t.db, { apiBase, signers: t.secrets.wechatpaySimSigners });
    expect(await merchants()).toEqual(before);
  });
});
