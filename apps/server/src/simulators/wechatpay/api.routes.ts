import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { wechatpayHeaders } from '../../modules/payment/wechatpay/protocol';
import type { SimMerchant, SimulatorCore } from './index';
import { authenticate, rawBodyOf } from './merchant-auth';
import { refundOf } from './refunds';
import { orderNotExist, WechatpayRefusal } from './refusal';
import { jsonObject, prepayInput, refundInput, sameMerchant } from './requests';
import { codeUrlOf, transactionOf } from './trades';

interface Answer {
  status: number;
  body?: object;
}

type Handler = (merchant: SimMerchant, req: FastifyRequest) => Answer | Promise<Answer>;

const hidden = { schema: { hide: true } };
const bodyOf = (req: FastifyRequest) => jsonObject(rawBodyOf(req));
const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name] ?? '';

/**
 * The merchant-facing WeChat Pay v3 endpoints of Native payment. Every request is verified
 * before anything is read; every answer, refusals and empty 204s included, is signed over
 * TIMESTAMP\nNONCE\nBODY\n like WeChat's, so the merchant's own checks run against it.
 */
export const apiRoutes =
  (core: SimulatorCore): FastifyPluginAsync =>
  async (app) => {
    const prefix = app.prefix;

    const send = (reply: FastifyReply, answer: Answer) => {
      const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
      reply
        .status(answer.status)
        .headers({ ...wechatpayHeaders(body, core.signer()), 'Request-ID': randomUUID() });
      if (body) reply.type('application/json; charset=utf-8');
      return reply.send(body);
    };

    const v3 = (handle: Handler) => async (req: FastifyRequest, reply: FastifyReply) => {
      let answer: Answer;
      try {
        answer = await handle(await authenticate(req, { prefix, merchant: core.merchant }), req);
      } catch (error) {
        if (error instanceof WechatpayRefusal) {
          answer = { status: error.status, body: { code: error.code, message: error.message } };
        } else {
          req.log.error({ err: error }, 'WeChat Pay simulator: unexpected fault');
          answer = { status: 500, body: { code: 'SYSTEM_ERROR', message: '系统错误' } };
        }
      }
      return send(reply, answer);
    };

    app.post(
      '/v3/pay/transactions/native',
      hidden,
      v3((merchant, req) => {
        const input = prepayInput(bodyOf(req), merchant.mchid);
        if (input.appid !== merchant.appid) {
          throw new WechatpayRefusal(400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
        }
        return { status: 200, body: { code_url: codeUrlOf(core.trades.prepay(input).pr) } };
      }),
    );

    app.get(
      '/v3/pay/transactions/out-trade-no/:outTradeNo',
      hidden,
      v3((merchant, req) => {
        sameMerchant((req.query as Record<string, unknown>).mchid, merchant.mchid);
        const trade = core.trades.find(merchant.mchid, param(req, 'outTradeNo'));
        if (!trade) throw orderNotExist();
        return { status: 200, body: transactionOf(trade) };
      }),
    );

    app.post(
      '/v3/pay/transactions/out-trade-no/:outTradeNo/close',
      hidden,
      v3((merchant, req) => {
        sameMerchant(bodyOf(req).mchid, merchant.mchid);
        core.trades.close(merchant.mchid, param(req, 'outTradeNo'));
        return { status: 204 };
      }),
    );

    app.post(
      '/v3/refund/domestic/refunds',
      hidden,
      v3((merchant, req) => ({
        status: 200,
        body: refundOf(core.refund(merchant, refundInput(bodyOf(req), merchant.mchid))),
      })),
    );

    app.get(
      '/v3/refund/domestic/refunds/:outRefundNo',
      hidden,
      v3((merchant, req) => {
        const refund = core.refunds.find(merchant.mchid, param(req, 'outRefundNo'));
        if (!refund) throw new WechatpayRefusal(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
        return { status: 200, body: refundOf(refund) };
      }),
    );
  };
