import { isRowId, WECHAT_NOTIFY_PATHS } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { rawTextBodies } from '../../plugins/raw-body';
import type { Merchants } from './merchants';
import { payNotify, payRefund } from './payment.tables';
import type { ApplyOutcome, WechatPay } from './wechat-pay';
import type { Refund, Transaction } from './wechatpay/client';
import {
  decryptResource,
  type NotifyEnvelope,
  signatureOf,
  verifyWechatpay,
  WechatpayVerifyError,
} from './wechatpay/protocol';

type Kind = 'transaction' | 'refund';

/** What we answer WeChat: 204, or {code: FAIL, message} with a status that asks for a retry. */
interface Answer {
  status: number;
  message?: string;
  outcome: string;
  outTradeNo?: string;
}

const SAVED_HEADERS = [
  'wechatpay-timestamp',
  'wechatpay-nonce',
  'wechatpay-signature',
  'wechatpay-serial',
  'content-type',
];

/** PostgreSQL text cannot hold NUL; the stored copy is for reading, not for verifying. */
const storable = (text: string) => text.replaceAll('\u0000', '\uFFFD');

/** The notify's outer JSON, read once: undefined when the body is not a JSON object. */
function parseEnvelope(body: string): NotifyEnvelope | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as NotifyEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

const ANSWER_OF: Record<ApplyOutcome, Answer> = {
  applied: { status: 204, outcome: 'applied' },
  duplicate: { status: 204, outcome: 'duplicate' },
  refunding: { status: 204, outcome: 'refunded' },
  'not-paid': { status: 204, outcome: 'ignored: not paid' },
  unknown: { status: 404, message: '订单不存在', outcome: 'rejected: unknown out_trade_no' },
  mismatch: { status: 400, message: '订单信息不符', outcome: 'rejected: mchid/appid/amount mismatch' },
};

/**
 * The notify endpoints WeChat posts to (notify_url): signature over the raw bytes, AEAD
 * decryption, then the payment or refund applied once. Every notify is stored with its outcome.
 */
export const wechatNotifyRoutes: FastifyPluginAsync<{
  db: Db;
  merchants: Merchants;
  wechat: WechatPay;
}> = async (app, { db, merchants, wechat }) => {
  rawTextBodies(app);

  async function receive(kind: Kind, req: FastifyRequest, reply: FastifyReply) {
    const siteId = Number((req.params as { siteId: string }).siteId);
    const body = typeof req.body === 'string' ? req.body : '';
    const envelope = parseEnvelope(body);
    const answer = await handle(kind, siteId, body, envelope, req).catch((error: unknown): Answer => {
      req.log.error({ err: error }, 'WeChat notify failed');
      return { status: 500, message: '系统繁忙，请重试', outcome: 'failed: internal error' };
    });
    const headers = Object.fromEntries(
      SAVED_HEADERS.map((name) => [name, String(req.headers[name] ?? '')]).filter(([, v]) => v !== ''),
    );
    await db.insert(payNotify).values({
      siteId: isRowId(siteId) ? siteId : 0,
      kind,
      eventId: typeof envelope?.id === 'string' ? storable(envelope.id.slice(0, 64)) : null,
      outTradeNo: answer.outTradeNo ?? null,
      headers,
      body: storable(body.slice(0, 65_536)),
      outcome: answer.outcome,
    });
    if (answer.status !== 204)
      req.log.warn({ siteId, kind, outcome: answer.outcome }, 'WeChat notify refused');
    if (answer.status === 204) return reply.code(204).send();
    return reply.code(answer.status).send({ code: 'FAIL', message: answer.message ?? '失败' });
  }

  async function handle(
    kind: Kind,
    siteId: number,
    body: string,
    envelope: NotifyEnvelope | undefined,
    req: FastifyRequest,
  ): Promise<Answer> {
    const merchant = isRowId(siteId) ? await merchants.forSite(siteId) : undefined;
    if (!merchant) return { status: 404, message: '商户不存在', outcome: 'rejected: no merchant for site' };
    let plain: string;
    try {
      verifyWechatpay(body, signatureOf(req.headers), merchant.config.platformKeys);
      if (!envelope) return { status: 400, message: '通知格式错误', outcome: 'rejected: malformed JSON' };
      if (!envelope.resource)
        return { status: 400, message: '通知格式错误', outcome: 'rejected: no resource' };
      plain = decryptResource(envelope.resource, merchant.config.apiV3Key);
    } catch (error) {
      if (error instanceof WechatpayVerifyError) {
        return {
          status: 401,
          message: error.fault === 'bad-ciphertext' ? '解密失败' : '签名错误',
          outcome: `rejected: ${error.fault}`,
        };
      }
      return { status: 400, message: '通知格式错误', outcome: 'rejected: malformed JSON' };
    }
    if (kind === 'transaction') {
      const trade = JSON.parse(plain) as Transaction;
      if (envelope.event_type !== 'TRANSACTION.SUCCESS')
        return { status: 204, outcome: `ignored: ${envelope.event_type}`, outTradeNo: trade.out_trade_no };
      return {
        ...ANSWER_OF[await wechat.applyTransaction(db, merchant, trade)],
        outTradeNo: trade.out_trade_no,
      };
    }
    const refund = JSON.parse(plain) as Refund;
    if (refund.mchid !== merchant.config.mchid)
      return { ...ANSWER_OF.mismatch, outTradeNo: refund.out_trade_no };
    const [row] = await db
      .select()
      .from(payRefund)
      .where(and(eq(payRefund.outRefundNo, String(refund.out_refund_no)), eq(payRefund.siteId, siteId)));
    if (!row || row.amount !== refund.amount?.refund)
      return { ...ANSWER_OF.unknown, outTradeNo: refund.out_trade_no };
    const status = refund.refund_status ?? refund.status;
    if (status) await wechat.settleRefund(db, row, status, refund.refund_id);
    return { status: 204, outcome: `refund ${status}`, outTradeNo: refund.out_trade_no };
  }

  const schema = { hide: true };
  for (const kind of ['transaction', 'refund'] as const)
    app.post(WECHAT_NOTIFY_PATHS[kind], { schema }, (req, reply) => receive(kind, req, reply));
};
