import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ADMIN_API_PREFIX, finiteKeyword, SHOP_API_PREFIX } from '@sitemall/contract';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import type { Redis } from 'ioredis';
import type { TokenResolver } from './context';
import type { Database } from './db/client';
import { type Job, startJob } from './lib/job';
import { safeLoggerOptions } from './lib/log';
import { requestIdOf } from './lib/request-id';
import { sharedSchemaCompilers } from './lib/schema-compilers';
import type { Secrets } from './lib/secrets';
import { activityConsole } from './modules/activity/activity.console';
import { activityRoutes } from './modules/activity/activity.routes';
import { bargainConsole } from './modules/activity/bargain.console';
import { bargainRoutes } from './modules/activity/bargain.routes';
import { groupConsole } from './modules/activity/group.console';
import { groupRoutes } from './modules/activity/group.routes';
import { redisSeckillGate, SECKILL_RECONCILE_MS } from './modules/activity/seckill-redis';
import { addressRoutes } from './modules/address/address.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { refundConsole } from './modules/admin/refund.console';
import { afterSaleConsole } from './modules/aftersale/aftersale.console';
import { afterSaleRoutes } from './modules/aftersale/aftersale.routes';
import { approvalConsole } from './modules/approval/approval.console';
import { cartRoutes } from './modules/cart/cart.routes';
import { catalogConsole } from './modules/catalog/catalog.console';
import { catalogRoutes } from './modules/catalog/catalog.routes';
import { type CatalogCache, createCatalogCache } from './modules/catalog/catalog.service';
import { createIdentityDeps } from './modules/identity/deps';
import { identityRoutes } from './modules/identity/identity.routes';
import { LOGINS_PER_IP_MINUTE } from './modules/identity/identity.service';
import { dbLimiter, redisLimiter } from './modules/identity/limits';
import type { SmsProvider } from './modules/identity/sms';
import { mediaRoutes } from './modules/media/media.routes';
import { merchantConsole } from './modules/merchant/merchant.console';
import { merchantRoutes } from './modules/merchant/merchant.routes';
import { batchRoutes } from './modules/order/batch.routes';
import { orderRoutes } from './modules/order/order.routes';
import { orderPaidByWechat } from './modules/order/pay';
import { promiseRoutes } from './modules/order/promise.routes';
import { useProviderGoods } from './modules/order/provider-goods';
import { packPaidByWechat } from './modules/packs/pack-orders';
import { packsConsole } from './modules/packs/packs.console';
import { packsRoutes } from './modules/packs/packs.routes';
import { ensureDemoCards } from './modules/packs/packs.service';
import {
  createMerchants,
  ensureSimulatedMerchants,
  type Merchants,
  simulatedMerchant,
} from './modules/payment/merchants';
import { wechatNotifyRoutes } from './modules/payment/notify.routes';
import { paymentConsole } from './modules/payment/payment.console';
import { createWechatPay, type WechatPay } from './modules/payment/wechat-pay';
import { pointsRoutes } from './modules/points/points.routes';
import { httpCinema, httpStatement, httpTopup } from './modules/provider/adapters';
import { runProviderWork, type WorkResult } from './modules/provider/issue';
import { providerConsole } from './modules/provider/provider.console';
import { providerRoutes } from './modules/provider/provider.routes';
import {
  type ProviderDeps,
  providerApiSecret,
  providerCodesKey,
  providerGoodsHooks,
} from './modules/provider/provider.service';
import { reconcileYesterday } from './modules/provider/provider-admin';
import { serviceConsole } from './modules/service/service.console';
import { serviceRoutes } from './modules/service/service.routes';
import { siteConsole } from './modules/site/site.console';
import { siteRoutes } from './modules/site/site.routes';
import type { SiteCache } from './modules/site/site.service';
import { vipConsole } from './modules/vip/vip.console';
import { vipRoutes } from './modules/vip/vip.routes';
import { voucherConsole } from './modules/voucher/voucher.console';
import { voucherRoutes } from './modules/voucher/voucher.routes';
import { BODY_LIMIT, bodyPlugin } from './plugins/body';
import { consolePlugin } from './plugins/console';
import { contextPlugin } from './plugins/context';
import { docsPlugin } from './plugins/docs';
import { errorsPlugin } from './plugins/errors';
import { observabilityPlugin } from './plugins/observability';
import { rateLimitPlugin } from './plugins/rate-limit';
import { createResponseCache } from './plugins/response-cache';
import { securityHeadersPlugin } from './plugins/security-headers';
import { shutdownPlugin } from './plugins/shutdown';
import { storefrontPlugin } from './plugins/storefront';
import { captchaSimulatorRoutes } from './simulators/captcha';
import { announceDemo } from './simulators/demo';
import { operatorSimulatorRoutes } from './simulators/operator';
import { partnerSimulatorRoutes, simulatedPartners } from './simulators/partners';
import { createProviderSimulator, type ProviderSimulator } from './simulators/provider';
import { createSmsSimulator, smsSimulatorRoutes } from './simulators/sms';
import { createWechatpaySimulator, type WechatpaySimulator } from './simulators/wechatpay';

const WECHATPAY_SIMULATOR_PREFIX = '/simulator/wechatpay';
const PROVIDER_SIMULATOR_PREFIX = '/simulator/provider';
const PROVIDER_APP_ID = 'sitemall';

/** The simulator's "phone" page for a code_url (weixin://wxpay/bizpayurl?pr=…). */
const simulatorScanUrl = (codeUrl: string) =>
  `${WECHATPAY_SIMULATOR_PREFIX}/scan?code=${encodeURIComponent(codeUrl)}`;

export interface AppDeps {
  database: Database;
  secrets: Secrets;
  sites: SiteCache;
  /**
   * Labels and categories per site, in memory (invalidated by NOTIFY like the site cache).
   * When absent the app makes its own and closes it with itself.
   */
  catalogs?: CatalogCache;
  /** Where uploads are stored (DATA_DIR; a temporary folder in tests). Absent: uploads are refused. */
  dataDir?: string;
  /** Built storefront; absent in API-only tests. */
  webDist?: string;
  /** Built operator console; absent in API-only tests. */
  adminDist?: string;
  logger?: FastifyServerOptions['logger'];
  resolveToken?: TokenResolver;
  /** Shared rate limits across processes; in the database when absent. */
  redis?: Redis;
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For gives the client address that every
   * per-address limit and the login log use (addresses/CIDRs, or a hop count). Off when absent.
   */
  trustProxy?: false | number | string[];
  /** Serve the simulators' own endpoints under /simulator (default true). */
  simulators?: boolean;
  /** A real SMS gateway; the simulator when absent. */
  sms?: SmsProvider;
  /** Minutes an unpaid order waits before it expires (default 30). */
  orderExpireMinutes?: number;
  /** Login-type calls per client IP per minute (default 30). */
  loginsPerIpMinute?: number;
  /** Where the outside world (WeChat's notifies) reaches this server; default http://127.0.0.1:8080. */
  publicUrl?: string;
  /** HTTP for the WeChat Pay adapter and the simulator's notifies (tests route it into the app). */
  wechatpayFetch?: typeof fetch;
  /** The simulator's notify retry delays (tests make them short). */
  wechatpayRetryDelaysMs?: number[];
  /** HTTP for the cinema and top-up adapters (tests route it into the app); WeChat's fetch when absent. */
  providerFetch?: typeof fetch;
  /** How long the provider adapters wait for an answer (default 10 s; tests make it short). */
  providerTimeoutMs?: number;
  /** Run the issue worker right after a payment (default true; tests run it by hand). */
  providerIssueOnPay?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** WeChat Pay: the payment service, the merchants, and in demo mode the simulator. */
    payments: { wechat: WechatPay; merchants: Merchants; simulator?: WechatpaySimulator };
    /** Provider goods: the adapters, one pass of the issue worker, and in demo mode the simulator. */
    providers: {
      deps: ProviderDeps;
      work: (now?: Date) => Promise<WorkResult>;
      /** The daily reconciliation of yesterday's statement (once a day; the job runs it hourly). */
      reconcile: (now?: Date) => Promise<unknown>;
      simulator?: ProviderSimulator;
    };
  }
}

/**
 * Fastify treats a bare hop count as "trust nothing" (it cannot check the nearest peer), so a
 * count becomes "trust the nearest n hops", as Express does: right only when every client
 * must come through those proxies.
 */
function trustProxyOption(trust: AppDeps['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust ?? false;
}

/** Builds the whole HTTP application from its dependencies; it opens nothing itself. */
export async function buildApp(deps: AppDeps) {
  const responses = createResponseCache();
  const app = Fastify({
    logger: safeLoggerOptions(deps.logger),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(deps.trustProxy),
    // plugins/shutdown answers the 503s while closing, in the envelope.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    genReqId: (req) => requestIdOf(req.headers),
    serverFactory: responses.serverFactory,
    schemaController: { compilersFactory: sharedSchemaCompilers },
    ajv: {
      customOptions: { coerceTypes: true, removeAdditional: true, useDefaults: true, allErrors: false },
      // The contract's integers refuse what coercion turns into ±Infinity (numbers.ts).
      plugins: [(ajv) => ajv.addKeyword(finiteKeyword)],
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const catalogs = deps.catalogs ?? (await createCatalogCache(deps.database));
  if (!deps.catalogs) app.addHook('onClose', () => catalogs.close());

  await app.register(securityHeadersPlugin);
  await app.register(errorsPlugin);
  await app.register(shutdownPlugin);
  await app.register(docsPlugin);
  await app.register(observabilityPlugin, { database: deps.database });
  await app.register(bodyPlugin);
  // Before every route: the public reads it keeps are found by their route config.
  await app.register(responses.plugin);
  deps.sites.onDrop(responses.clear);
  catalogs.onDrop(responses.clear);
  const limiter = deps.redis ? redisLimiter(deps.redis) : dbLimiter(deps.database.db);
  await app.register(rateLimitPlugin, { limiter });
  const smsSimulator = createSmsSimulator(app.log, { showText: deps.simulators ?? true });
  const identity = createIdentityDeps({
    secrets: deps.secrets,
    limiter,
    metrics: app.metrics,
    sms: deps.sms ?? smsSimulator.provider,
    partners: simulatedPartners(deps.secrets.partnerKey),
    loginsPerIpMinute: deps.loginsPerIpMinute ?? LOGINS_PER_IP_MINUTE,
  });
  app.addHook('onReady', () => identity.sessions.start(deps.database));
  app.addHook('onClose', () => identity.sessions.stop());
  await app.register(contextPlugin, {
    db: deps.database.db,
    catalogue: deps.database.catalogue,
    sites: deps.sites,
    resolveToken: deps.resolveToken ?? identity.sessions.resolve,
  });

  const simulators = deps.simulators ?? true;
  const publicUrl = (deps.publicUrl ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  const merchants = createMerchants(deps.database.db, deps.wechatpayFetch);
  const wechat = createWechatPay({
    merchants,
    orderPaid: orderPaidByWechat,
    notifyBase: `${publicUrl}${SHOP_API_PREFIX}`,
    scanUrlOf: simulators ? simulatorScanUrl : undefined,
    log: app.log,
  });
  // Packs bought by WeChat: the payment module reports their paid codes to the packs module.
  wechat.registerPayee('pack', packPaidByWechat(deps.secrets.partnerKey));
  const simulator = simulators
    ? createWechatpaySimulator({
        signers: deps.secrets.wechatpaySimSigners,
        merchant: (mchid) => simulatedMerchant(deps.database.db, mchid),
        fetch: deps.wechatpayFetch,
        retryDelaysMs: deps.wechatpayRetryDelaysMs,
        log: app.log,
      })
    : undefined;
  app.decorate('payments', { wechat, merchants, simulator });
  // Flash sales behind Redis when the deployment has it; each process reconciles what it loaded.
  const seckillGate = deps.redis ? redisSeckillGate(deps.redis) : undefined;
  if (seckillGate) {
    let reconcile: Job | undefined;
    app.addHook('onReady', async () => {
      reconcile = startJob(() => seckillGate.reconcile(deps.database.db), {
        intervalMs: SECKILL_RECONCILE_MS,
        onError: (err) => app.log.error({ err }, 'flash-sale reconcile failed'),
      });
    });
    app.addHook('onClose', async () => reconcile?.stop());
  }

  // Provider goods (modules/provider): cinema and top-up adapters over HTTP to the provider (the
  // simulator under /simulator/provider here), the order module's hooks, the issue worker.
  const providerSecret = providerApiSecret(deps.secrets.partnerKey);
  const providerEndpoint = {
    apiBase: `${publicUrl}${PROVIDER_SIMULATOR_PREFIX}`,
    appId: PROVIDER_APP_ID,
    secret: providerSecret,
    timeoutMs: deps.providerTimeoutMs ?? 10_000,
    fetch: deps.providerFetch ?? deps.wechatpayFetch,
  };
  const providerDeps: ProviderDeps = {
    cinema: httpCinema(providerEndpoint),
    topup: httpTopup(providerEndpoint),
    statement: httpStatement(providerEndpoint),
    codesKey: providerCodesKey(deps.secrets.partnerKey),
    log: app.log,
  };
  useProviderGoods(providerGoodsHooks(providerDeps.codesKey));
  const providerSimulator = simulators
    ? createProviderSimulator({ appId: PROVIDER_APP_ID, secret: providerSecret, publicBase: publicUrl })
    : undefined;
  const providerWork = (now?: Date) => runProviderWork(deps.database.db, providerDeps, now);
  const kickProviders = () => {
    if (deps.providerIssueOnPay === false) return;
    setImmediate(() => {
      providerWork().catch((err) => app.log.error({ err }, 'provider issue failed'));
    });
  };
  app.decorate('providers', {
    deps: providerDeps,
    work: providerWork,
    reconcile: (now?: Date) => reconcileYesterday(deps.database.db, providerDeps.statement, now),
    simulator: providerSimulator,
  });
  if (simulator) {
    app.addHook('onReady', () => ensureDemoCards(deps.database.db, deps.secrets.partnerKey));
    app.addHook('onReady', async () => {
      await ensureSimulatedMerchants(deps.database.db, {
        apiBase: `${publicUrl}${WECHATPAY_SIMULATOR_PREFIX}`,
        signers: deps.secrets.wechatpaySimSigners,
      });
      merchants.forget();
    });
    app.addHook('onClose', async () => simulator.stop());
  }

  await app.register(
    async (api) => {
      await api.register(siteRoutes, { sites: deps.sites, hotlineKey: deps.secrets.hotlineKey });
      await api.register(catalogRoutes, { catalogs });
      await api.register(merchantRoutes, { dataDir: deps.dataDir });
      await api.register(serviceRoutes, { hotlineKey: deps.secrets.hotlineKey });
      await api.register(identityRoutes, { deps: identity });
      await api.register(pointsRoutes);
      await api.register(cartRoutes);
      await api.register(addressRoutes);
      await api.register(orderRoutes, { orderExpireMinutes: deps.orderExpireMinutes, wechat, seckillGate });
      await api.register(wechatNotifyRoutes, { db: deps.database.db, merchants, wechat });
      await api.register(batchRoutes, { orderExpireMinutes: deps.orderExpireMinutes });
      await api.register(voucherRoutes);
      await api.register(activityRoutes);
      await api.register(groupRoutes, { orderExpireMinutes: deps.orderExpireMinutes });
      await api.register(bargainRoutes);
      await api.register(afterSaleRoutes, { dataDir: deps.dataDir });
      await api.register(vipRoutes);
      await api.register(packsRoutes, {
        masterKey: deps.secrets.partnerKey,
        limiter,
        wechat,
        orderExpireMinutes: deps.orderExpireMinutes,
      });
      await api.register(promiseRoutes);
      await api.register(providerRoutes, {
        deps: providerDeps,
        wechat,
        orderExpireMinutes: deps.orderExpireMinutes,
        kick: kickProviders,
      });
    },
    { prefix: SHOP_API_PREFIX },
  );
  await app.register(adminRoutes, {
    prefix: ADMIN_API_PREFIX,
    limiter,
    sites: deps.sites,
    sessions: identity.sessions,
    // The console screens of each family (`<module>.console.ts`), guarded by the console's hooks.
    families: [
      voucherConsole,
      packsConsole(deps.secrets.partnerKey),
      vipConsole,
      groupConsole,
      bargainConsole,
      activityConsole,
      afterSaleConsole,
      approvalConsole,
      refundConsole,
      catalogConsole(catalogs, deps.dataDir),
      providerConsole(providerDeps),
      merchantConsole(deps.dataDir),
      serviceConsole,
      paymentConsole,
      siteConsole(deps.sites),
    ],
  });
  if (simulator) {
    await app.register(async (demo) => {
      announceDemo(demo);
      await demo.register(simulator.routes, { prefix: WECHATPAY_SIMULATOR_PREFIX });
      if (providerSimulator)
        await demo.register(providerSimulator.routes, { prefix: PROVIDER_SIMULATOR_PREFIX });
      await demo.register(smsSimulatorRoutes, { simulator: smsSimulator });
      await demo.register(captchaSimulatorRoutes, { db: deps.database.db });
      await demo.register(partnerSimulatorRoutes, { partnerKey: deps.secrets.partnerKey });
      await demo.register(operatorSimulatorRoutes, { db: deps.database.db });
    });
  }

  await app.register(mediaRoutes, { sites: deps.sites, db: deps.database.db, dataDir: deps.dataDir });
  if (deps.webDist) await app.register(storefrontPlugin, { webDist: deps.webDist, sites: deps.sites });
  if (deps.adminDist) await app.register(consolePlugin, { adminDist: deps.adminDist });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
