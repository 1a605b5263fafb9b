import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { PAY_WAY } from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ttlCache } from '../../lib/ttl-cache';
import { siteIdsOffering, siteNameOf } from '../site/site.service';
import { payMerchant } from './payment.tables';
import { type MerchantConfig, WechatpayClient } from './wechatpay/client';
import { type PlatformSigner, publicKeyPem } from './wechatpay/protocol';

export interface Merchant {
  siteId: number;
  config: MerchantConfig;
  client: WechatpayClient;
}

type MerchantRow = typeof payMerchant.$inferSelect;

const CACHE_MS = 60_000;
/** Far above the number of sites: a bound, not a tuning knob. */
const CACHE_MAX_SITES = 10_000;

function configOf(row: MerchantRow): MerchantConfig {
  return {
    appid: row.appid,
    mchid: row.mchid,
    serialNo: row.serialNo,
    privateKey: createPrivateKey(row.privateKeyPem),
    apiV3Key: row.apiV3Key,
    platformKeys: new Map(
      Object.entries(row.platformKeys).map(([serial, pem]) => [serial, createPublicKey(pem)]),
    ),
    apiBase: row.apiBase,
  };
}

/**
 * Each site's WeChat Pay merchant, read from pay_merchant and kept a minute in memory (key
 * parsing is not free, and every notify and poll needs it).
 */
export function createMerchants(db: Db, http: typeof fetch = fetch) {
  // Wrapped: a site without a merchant is remembered too (the cache holds no undefined).
  const cache = ttlCache<number, { merchant: Merchant | undefined }>({
    ttlMs: CACHE_MS,
    max: CACHE_MAX_SITES,
  });
  return {
    async forSite(siteId: number): Promise<Merchant | undefined> {
      const hit = cache.get(siteId);
      if (hit) return hit.merchant;
      const [row] = await db.select().from(payMerchant).where(eq(payMerchant.siteId, siteId));
      const merchant = row && {
        siteId,
        config: configOf(row),
        client: new WechatpayClient(configOf(row), http),
      };
      cache.set(siteId, { merchant });
      return merchant;
    },
    forget: () => cache.clear(),
  };
}
export type Merchants = ReturnType<typeof createMerchants>;

/** What the simulator knows of a merchant: the public half of its key, its APIv3 key. */
export async function simulatedMerchant(db: Db, mchid: string) {
  const [merchant] = await db.select().from(payMerchant).where(eq(payMerchant.mchid, mchid));
  const name = merchant && (await siteNameOf(db, merchant.siteId));
  if (!merchant || name === undefined) return undefined;
  return {
    mchid: merchant.mchid,
    appid: merchant.appid,
    publicKeys: new Map<string, KeyObject>([[merchant.serialNo, createPublicKey(merchant.privateKeyPem)]]),
    apiV3Key: merchant.apiV3Key,
    name,
  };
}

const hex = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').slice(0, length).toUpperCase();

/**
 * One simulated key per process for the merchants made at the simulator, inserted in one
 * statement: an RSA key per site made start-up grow with the sites (1,000 sites: 997 keys, past
 * the 10 s ready limit), and one per app built cost each test file 0.4 s. A simulated merchant's
 * key guards nothing real; mchid, serial and APIv3 key stay per site.
 */
let simulatedKeyPem: string | undefined;
function simulatedMerchantKey(): string {
  simulatedKeyPem ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  return simulatedKeyPem;
}

/**
 * Demo mode: every site that offers wx_pc gets a merchant account at the local simulator,
 * with keys generated here (never in the repository). Accounts made earlier are pointed at
 * the simulator's current platform keys, which live in the data folder's secrets.
 */
export async function ensureSimulatedMerchants(
  db: Db,
  simulator: { apiBase: string; signers: PlatformSigner[] },
): Promise<void> {
  const platformKeys = Object.fromEntries(
    simulator.signers.map((s) => [s.serial, publicKeyPem(s.privateKey)]),
  );
  const withMerchant = new Set(
    (await db.select({ siteId: payMerchant.siteId }).from(payMerchant)).map((m) => m.siteId),
  );
  const siteIds = (await siteIdsOffering(db, PAY_WAY.wechatPc)).filter((id) => !withMerchant.has(id));
  if (siteIds.length > 0) {
    const privateKeyPem = simulatedMerchantKey();
    await db
      .insert(payMerchant)
      .values(
        siteIds.map((siteId) => ({
          siteId,
          appid: `wx${hex(`appid:${siteId}`, 16).toLowerCase()}`,
          mchid: `19${String(siteId).padStart(8, '0')}`,
          serialNo: randomBytes(20).toString('hex').toUpperCase(),
          privateKeyPem,
          apiV3Key: randomBytes(16).toString('hex'),
          platformKeys,
          apiBase: simulator.apiBase,
        })),
      )
      .onConflictDoNothing();
  }
  await db
    .update(payMerchant)
    .set({ platformKeys, apiBase: simulator.apiBase })
    .where(sql`${payMerchant.apiBase} like '%/simulator/wechatpay'`);
}
