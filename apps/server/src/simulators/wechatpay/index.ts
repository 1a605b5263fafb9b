import { type KeyObject, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Transaction } from '../../modules/payment/wechatpay/client';
import type { PlatformSigner } from '../../modules/payment/wechatpay/protocol';
import { rawTextBodies } from '../../plugins/raw-body';
import { apiRoutes } from './api.routes';
import { devRoutes } from './dev.routes';
import { createNotifier, type Notifier, type NotifyDelivery, type NotifyMode } from './notifier';
import {
  createRefundBook,
  type RefundBook,
  type RefundInput,
  type RefundRecord,
  refundNoticeOf,
} from './refunds';
import { scanRoutes } from './scan.routes';
import { createTradeBook, type TradeBook, type TradeRecord, transactionOf } from './trades';
import { createWork } from './work';

export type { NotifyDelivery, NotifyMode, NotifyTamper } from './notifier';
export { WechatpayRefusal } from './refusal';

/** A merchant account as WeChat knows it: what the merchant registered on the merchant platform. */
export interface SimMerchant {
  mchid: string;
  appid: string;
  /** merchant certificate serial → merchant public key (what the merchant "uploaded") */
  publicKeys: ReadonlyMap<string, KeyObject>;
  /** 32 ASCII characters: seals notify resources. */
  apiV3Key: string;
  /** Shown on the scan page (e.g. the site name). */
  name?: string;
}

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export interface WechatpaySimulatorOptions {
  /** Platform signing keys; answers and notifies are signed with signers[0] unless notifyMode.signWith names another. */
  signers: PlatformSigner[];
  /** Looks a merchant up by mchid (the simulator has no merchant registry of its own). */
  merchant(mchid: string): Promise<SimMerchant | undefined>;
  /** Posts notifies; global fetch by default. */
  fetch?: typeof fetch;
  /** Delays before each notify retry after a failed delivery; WeChat's schedule by default. */
  retryDelaysMs?: number[];
  /** Delay before a refund turns from PROCESSING to SUCCESS (and its notify is sent); default 1 s. */
  refundDelayMs?: number;
  log?: Log;
}

export interface WechatpaySimulator {
  /** Fastify plugin to register with { prefix: '/simulator/wechatpay' }. */
  routes: FastifyPluginAsync;
  /** The person scans code_url (or its pr id) and pays: SUCCESS, then the notify. Throws a WechatpayRefusal when the trade cannot be paid. */
  pay(codeUrlOrPr: string, options?: { openid?: string }): Promise<Transaction>;
  /** The bank refuses: PAYERROR, no notify (the merchant learns it by querying). */
  fail(codeUrlOrPr: string): Promise<Transaction>;
  /** The trade by out_trade_no (the latest, whichever merchant), undefined if unknown. */
  trade(outTradeNo: string): Transaction | undefined;
  /** How the next notifies are sent (mutable). */
  notifyMode: NotifyMode;
  /** Sends the held notifies, optionally in reverse order (out-of-order delivery). */
  flush(options?: { reverse?: boolean }): Promise<void>;
  /** Every delivery attempt made, oldest first. */
  deliveries(): readonly NotifyDelivery[];
  /** Resolves when no notify delivery, retry or refund timer is pending. */
  idle(): Promise<void>;
  /** Cancels retry and refund timers (app close). */
  stop(): void;
}

/** What the route modules share. */
export interface SimulatorCore {
  trades: TradeBook;
  refunds: RefundBook;
  notifier: Notifier;
  merchant(mchid: string): Promise<SimMerchant | undefined>;
  /** The platform key answers are signed with now. */
  signer(): PlatformSigner;
  pay(codeUrlOrPr: string, openid?: string): Promise<TradeRecord>;
  fail(codeUrlOrPr: string): TradeRecord;
  refund(merchant: SimMerchant, input: RefundInput): RefundRecord;
}

/** WeChat's notify retry schedule: 15s/15s/30s/3m/10m… (pay.weixin.qq.com/doc/v3, 支付通知). */
const WECHAT_RETRY_DELAYS_MS = [15_000, 15_000, 30_000, 180_000, 600_000];
const DEFAULT_REFUND_DELAY_MS = 1_000;

/** An openid as WeChat issues them per appid: 28 characters starting with 'o'. */
const randomOpenid = () => `o${randomBytes(21).toString('base64url').slice(0, 27)}`;

/**
 * A local WeChat Pay (API v3, Native) for development and tests: the merchant endpoints, the
 * phone that scans and pays, and the notify sender, all speaking the real wire protocol.
 */
export function createWechatpaySimulator(options: WechatpaySimulatorOptions): WechatpaySimulator {
  if (options.signers.length === 0)
    throw new Error('the WeChat Pay simulator needs at least one platform signer');
  const work = createWork();
  const trades = createTradeBook();
  const refunds = createRefundBook(trades);

  const signerFor = (serial?: string): PlatformSigner => {
    const signer = serial ? options.signers.find((s) => s.serial === serial) : options.signers[0];
    if (!signer) throw new Error(`no platform signer with serial ${serial}`);
    return signer;
  };
  const notifier = createNotifier({
    signer: signerFor,
    fetch: options.fetch ?? fetch,
    retryDelaysMs: options.retryDelaysMs ?? WECHAT_RETRY_DELAYS_MS,
    work,
    ...(options.log ? { log: options.log } : {}),
  });

  const merchantOf = async (mchid: string) => {
    const merchant = await options.merchant(mchid);
    if (!merchant) throw new Error(`merchant ${mchid} is no longer known`);
    return merchant;
  };

  const core: SimulatorCore = {
    trades,
    refunds,
    notifier,
    merchant: options.merchant,
    signer: () => signerFor(notifier.mode.signWith),

    async pay(codeUrlOrPr, openid) {
      const trade = trades.pay(codeUrlOrPr, openid ?? randomOpenid());
      options.log?.info({ out_trade_no: trade.outTradeNo, mchid: trade.mchid }, 'WeChat Pay simulator: paid');
      const merchant = await merchantOf(trade.mchid);
      notifier.send({
        url: trade.notifyUrl,
        apiV3Key: merchant.apiV3Key,
        eventType: 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        originalType: 'transaction',
        plaintext: transactionOf(trade),
      });
      return trade;
    },

    fail: (codeUrlOrPr) => trades.fail(codeUrlOrPr),

    refund(merchant, input) {
      const { refund, isNew } = refunds.request(input);
      if (!isNew) return refund;
      // The money takes a while to reach the payer: SUCCESS (and the notify) come later.
      work.later(options.refundDelayMs ?? DEFAULT_REFUND_DELAY_MS, () => {
        refunds.complete(refund);
        if (!refund.notifyUrl) return undefined;
        notifier.send({
          url: refund.notifyUrl,
          apiV3Key: merchant.apiV3Key,
          eventType: 'REFUND.SUCCESS',
          summary: '退款成功',
          originalType: 'refund',
          plaintext: refundNoticeOf(refund),
        });
        return undefined;
      });
      return refund;
    },
  };

  const routes: FastifyPluginAsync = async (app) => {
    // Signatures cover the exact bytes sent: this context keeps every body as raw text.
    rawTextBodies(app);
    await app.register(apiRoutes(core));
    await app.register(scanRoutes(core));
    await app.register(devRoutes(core));
  };

  return {
    routes,
    pay: async (codeUrlOrPr, payOptions) => transactionOf(await core.pay(codeUrlOrPr, payOptions?.openid)),
    fail: async (codeUrlOrPr) => transactionOf(core.fail(codeUrlOrPr)),
    trade: (outTradeNo) => {
      const trade = trades.findAny(outTradeNo);
      return trade && transactionOf(trade);
    },
    notifyMode: notifier.mode,
    flush: (flushOptions) => notifier.flush(flushOptions),
    deliveries: () => notifier.deliveries(),
    idle: () => work.idle(),
    stop: () => work.stop(),
  };
}
