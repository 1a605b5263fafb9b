import { type LoggerOptions, pino } from 'pino';
import { buildApp } from './app';
import { readConfig } from './config';
import type { Db } from './db/client';
import { openDatabase } from './db/client';
import { PROVIDER_DEMO_SITE, seedProviderOrders } from './db/demo/provider-orders';
import { waitForDatabase } from './db/readiness';
import { seedDemo } from './db/seed';
import { startStatistics } from './db/statistics';
import { startJob } from './lib/job';
import { safeLoggerOptions } from './lib/log';
import { loadSecrets } from './lib/secrets';
import { expireBargains } from './modules/activity/bargain';
import { expireBenefits } from './modules/activity/benefit';
import { settleGroupTeams } from './modules/activity/group-settle';
import { expireGifts } from './modules/activity/lottery';
import { startAfterSaleTimers } from './modules/aftersale/timers';
import { expireApprovals } from './modules/approval/approval.service';
import { createCatalogCache } from './modules/catalog/catalog.service';
import { startOrderExpiry } from './modules/order/expiry';
import { refundPaidOrder } from './modules/order/fulfilment';
import { expirePackOrders } from './modules/packs/pack-orders';
import { expireCards } from './modules/packs/packs.service';
import { createSiteCache, requireSite, type SiteCache } from './modules/site/site.service';
import { recalcAutoLevels } from './modules/vip/vip.service';
import { expireVouchers } from './modules/voucher/voucher.service';
import { createOpsApp } from './plugins/observability';

/** Demo provider orders on a freshly seeded database; a failure is logged, the server stays up. */
async function seedProviderDemo(
  app: Awaited<ReturnType<typeof buildApp>>,
  db: Db,
  sites: SiteCache,
  orderExpireMinutes: number,
) {
  try {
    const made = await seedProviderOrders({
      db,
      site: await requireSite(sites, PROVIDER_DEMO_SITE),
      providers: app.providers,
      wechat: app.payments.wechat,
      orderExpireMinutes,
    });
    app.log.info(made, 'demo provider orders seeded');
  } catch (err) {
    app.log.error({ err }, 'demo provider orders not seeded');
  }
}

/** Read config, open (or wait for) the database, migrate, seed demo data when empty, listen. */
async function main() {
  const config = readConfig();
  const secrets = await loadSecrets(config.dataDir);
  // Start-up faults (database, migrations) go through the same safe serializer as requests.
  const log = pino(safeLoggerOptions({ level: config.logLevel }) as LoggerOptions);
  const database = await openDatabase({ ...config, log });
  // The database may start after us or be restarting: wait (bounded) rather than exit at once.
  await waitForDatabase(database, { timeoutMs: config.dbConnectTimeoutSeconds * 1000, log });
  await database.migrate();
  const seeded = await seedDemo(database.db);
  const sites = await createSiteCache(database, secrets.hotlineKey);
  const catalogs = await createCatalogCache(database);
  // Imported only when configured: ioredis adds half a second to every start without Redis.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 })
    : undefined;
  const app = await buildApp({
    redis,
    simulators: config.simulators,
    loginsPerIpMinute: config.loginsPerIpMinute,
    orderExpireMinutes: config.orderExpireMinutes,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    database,
    secrets,
    sites,
    catalogs,
    dataDir: config.dataDir,
    webDist: config.webDist,
    adminDist: config.adminDist,
    logger: { level: config.logLevel },
  });
  // Unpaid orders expire in every process; SKIP LOCKED keeps them from taking the same order.
  const expiry = startOrderExpiry(database.db, {
    onError: (err) => app.log.error({ err }, 'order expiry failed'),
  });
  // Unused vouchers past their end become expired (reads already show them so), every minute.
  const voucherExpiry = startJob(() => expireVouchers(database.db), {
    intervalMs: 60_000,
    onError: (err) => app.log.error({ err }, 'voucher expiry failed'),
  });
  // Gift cards past their end lose their balance (expire ledger entry) and expire, every 10
  // minutes; SKIP LOCKED batches let every process run it.
  const cardExpiry = startJob(() => expireCards(database.db), {
    intervalMs: 600_000,
    onError: (err) => app.log.error({ err }, 'card expiry failed'),
  });
  // Pack purchases by WeChat nobody paid in time close (after the reconciliation closed their
  // codes at WeChat), every 30 s; one conditional UPDATE, safe in every process.
  const packOrderExpiry = startJob(() => expirePackOrders(database.db), {
    intervalMs: 30_000,
    onError: (err) => app.log.error({ err }, 'pack order expiry failed'),
  });
  // VIP levels by rule (points spent), every hour.
  const vipLevels = startJob(() => recalcAutoLevels(database.db), {
    intervalMs: 3_600_000,
    onError: (err) => app.log.error({ err }, 'VIP level rules failed'),
  });
  // Unclaimed lottery prizes past their deadline become expired (-1), every minute.
  const giftExpiry = startJob(() => expireGifts(database.db), {
    intervalMs: 60_000,
    onError: (err) => app.log.error({ err }, 'gift expiry failed'),
  });
  // Bargains past their deadline fail (3), received benefits unused expire (-1); reads already
  // show them so; every minute.
  const bargainExpiry = startJob(
    async () => (await expireBargains(database.db)) + (await expireBenefits(database.db)),
    {
      intervalMs: 60_000,
      onError: (err) => app.log.error({ err }, 'bargain expiry failed'),
    },
  );
  // WeChat payments no notify settled, expired codes and pending refunds, every 10 s.
  const reconcile = startJob(() => app.payments.wechat.reconcile(database.db), {
    intervalMs: 10_000,
    onError: (err) => app.log.error({ err }, 'payment reconciliation failed'),
  });
  // Automatic receipt, unshipped returns and WeChat after-sales refunds, every minute.
  const afterSales = startAfterSaleTimers(database.db, {
    onError: (err) => app.log.error({ err }, 'after-sales timers failed'),
  });
  // Orders nobody approved, or approved and nobody paid, in time; every 30 s.
  const approvals = startJob(() => expireApprovals(database.db), {
    intervalMs: 30_000,
    onError: (err) => app.log.error({ err }, 'approval expiry failed'),
  });
  // Group-buy teams whose time is up: succeed (virtual fill) or fail and refund, every 30 s.
  const groupTeams = startJob(() => settleGroupTeams(database.db, refundPaidOrder), {
    intervalMs: 30_000,
    onError: (err) => app.log.error({ err }, 'group-buy settlement failed'),
  });
  // Provider goods: seats of ended orders released, paid tickets, top-ups and e-codes issued, every 2 s.
  const providerIssues = startJob(() => app.providers.work(), {
    intervalMs: 2_000,
    onError: (err) => app.log.error({ err }, 'provider issue worker failed'),
  });
  // Provider statements: yesterday's reconciled once (China day), checked every hour.
  const providerRecon = startJob(() => app.providers.reconcile(), {
    intervalMs: 3_600_000,
    onError: (err) => app.log.error({ err }, 'provider reconciliation failed'),
  });
  // The planner's statistics, every hour, where no autovacuum keeps them (PGlite; a PostgreSQL
  // run with it off): db/statistics.ts.
  const statistics = await startStatistics(database, {
    onError: (err) => app.log.error({ err }, 'analyze failed'),
  });
  app.addHook('onClose', async () => {
    await statistics?.stop();
    await providerRecon.stop();
    await groupTeams.stop();
    await providerIssues.stop();
    await approvals.stop();
    await afterSales.stop();
    await reconcile.stop();
    await expiry.stop();
    await voucherExpiry.stop();
    await cardExpiry.stop();
    await packOrderExpiry.stop();
    await vipLevels.stop();
    await giftExpiry.stop();
    await bargainExpiry.stop();
    await sites.close();
    await catalogs.close();
    await redis?.quit();
    await database.close();
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'unclean stop');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // Metrics and the detailed readiness answer on their own listener only (OPS_PORT).
  const ops = config.ops && (await createOpsApp({ database, registry: app.metrics, log: app.log }));
  if (ops) {
    app.addHook('onClose', () => ops.close());
    await ops.listen(config.ops).catch((error: Error) => {
      throw new Error(`OPS_PORT ${config.ops?.port}: ${error.message}; set OPS_PORT to a free port, or off`);
    });
  }
  await app.listen({ port: config.port, host: config.host });
  // The demo's provider orders go through the provider simulator's HTTP API: once listening.
  if (seeded && app.providers.simulator)
    await seedProviderDemo(app, database.db, sites, config.orderExpireMinutes);
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite at ${config.dataDir}`;
  app.log.info(`database: ${where}${seeded ? ' (demo data seeded)' : ''}`);
  const shownHost = config.host === '127.0.0.1' || config.host === '0.0.0.0' ? 'localhost' : config.host;
  if (config.ops) console.log(`Operators: http://${config.ops.host}:${config.ops.port}/metrics and /readyz`);
  if (config.demo && config.simulators) {
    console.log(
      'DEMO MODE (DEMO=on): the simulators under /simulator/ let anyone log in as any member, read SMS and image codes and fake payments. Never let real shoppers in.',
    );
  } else if (config.simulators) {
    console.log(
      'Simulators on (this machine only, HOST is loopback): /simulator/...; SIMULATORS=off turns them off.',
    );
  }
  // Last: scripts and tests take this line as "started" and read what came before.
  console.log(`Sitemall is running: http://${shownHost}:${config.port}/shoppingmall/home?siteId=719`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
