import type { KeyObject } from 'node:crypto';
import { authorization, type MerchantIdentity, signatureOf, verifyWechatpay } from './protocol';

/** One site's WeChat Pay merchant account, as the adapter needs it. */
export interface MerchantConfig extends MerchantIdentity {
  appid: string;
  apiV3Key: string;
  /** Serial → verification key: platform certificates and PUB_KEY_ID_… public keys alike. */
  platformKeys: ReadonlyMap<string, KeyObject>;
  /** https://api.mch.weixin.qq.com, or the local simulator's root. */
  apiBase: string;
}

export interface NativePrepay {
  description: string;
  out_trade_no: string;
  time_expire: string;
  notify_url: string;
  attach?: string;
  amount: { total: number; currency?: 'CNY' };
}

export type TradeState = 'SUCCESS' | 'REFUND' | 'NOTPAY' | 'CLOSED' | 'REVOKED' | 'USERPAYING' | 'PAYERROR';

/** A transaction as WeChat reports it (query answer and decrypted pay notify). */
export interface Transaction {
  appid: string;
  mchid: string;
  out_trade_no: string;
  transaction_id?: string;
  trade_type?: string;
  trade_state: TradeState;
  trade_state_desc?: string;
  success_time?: string;
  attach?: string;
  payer?: { openid: string };
  amount?: { total: number; payer_total?: number; currency: string; payer_currency?: string };
}

export interface RefundRequest {
  out_trade_no: string;
  out_refund_no: string;
  reason?: string;
  notify_url?: string;
  amount: { refund: number; total: number; currency: 'CNY' };
}

export type RefundStatus = 'SUCCESS' | 'CLOSED' | 'PROCESSING' | 'ABNORMAL';

export interface Refund {
  /** Present in the refund notify's resource. */
  mchid?: string;
  refund_id: string;
  out_refund_no: string;
  transaction_id?: string;
  out_trade_no: string;
  status?: RefundStatus;
  /** The refund notify calls it refund_status. */
  refund_status?: RefundStatus;
  success_time?: string;
  create_time?: string;
  amount: { total: number; refund: number; payer_total?: number; payer_refund?: number };
}

/** WeChat answered with an error ({code, message}), or its answer could not be trusted. */
export class WechatpayApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'WechatpayApiError';
  }
}

type Fetch = typeof fetch;

/**
 * The merchant side of WeChat Pay v3 Native. Every request is signed; every answer is
 * verified over its raw body before it is read, so an unsigned or forged 2xx is refused.
 */
export class WechatpayClient {
  constructor(
    readonly merchant: MerchantConfig,
    private readonly http: Fetch = fetch,
  ) {}

  /** POST /v3/pay/transactions/native → code_url to draw as a QR code. */
  async nativePrepay(order: NativePrepay): Promise<{ code_url: string }> {
    const { appid, mchid } = this.merchant;
    return this.call('POST', '/v3/pay/transactions/native', {
      appid,
      mchid,
      ...order,
      amount: { currency: 'CNY', ...order.amount },
    }) as Promise<{ code_url: string }>;
  }

  queryByOutTradeNo(outTradeNo: string): Promise<Transaction> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.merchant.mchid)}`;
    return this.call('GET', path) as Promise<Transaction>;
  }

  async close(outTradeNo: string): Promise<void> {
    await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, {
      mchid: this.merchant.mchid,
    });
  }

  refund(request: RefundRequest): Promise<Refund> {
    return this.call('POST', '/v3/refund/domestic/refunds', request) as Promise<Refund>;
  }

  queryRefund(outRefundNo: string): Promise<Refund> {
    return this.call(
      'GET',
      `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`,
    ) as Promise<Refund>;
  }

  private async call(method: 'GET' | 'POST', path: string, payload?: object): Promise<unknown> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    let response: Response;
    try {
      response = await this.http(new URL(path.replace(/^\//, ''), withSlash(this.merchant.apiBase)), {
        method,
        headers: {
          Accept: 'application/json',
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          // WeChat signs the API path (/v3/…); a base with its own path (the simulator) is a mount point.
          Authorization: authorization(this.merchant, { method, path, body }),
          'User-Agent': 'sitemall-wechatpay/1',
        },
        body: body || undefined,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new WechatpayApiError(0, 'NETWORK', (error as Error).message);
    }
    const raw = Buffer.from(await response.arrayBuffer()).toString('utf8');
    const signed = signatureOf(response.headers);
    if (response.ok || signed) {
      try {
        verifyWechatpay(raw, signed, this.merchant.platformKeys);
      } catch (error) {
        throw new WechatpayApiError(response.status, 'UNTRUSTED_RESPONSE', (error as Error).message);
      }
    }
    const parsed = raw ? safeJson(raw) : {};
    if (!response.ok) {
      const { code, message } = (parsed ?? {}) as { code?: string; message?: string };
      throw new WechatpayApiError(response.status, code ?? 'HTTP_ERROR', message ?? raw.slice(0, 200));
    }
    if (parsed === undefined)
      throw new WechatpayApiError(response.status, 'BAD_RESPONSE', 'answer is not JSON');
    return parsed;
  }
}

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
