import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SimulatorCore } from './index';
import { WechatpayRefusal } from './refusal';
import { renderScanPage, type ScanOrder, type ScanView } from './scan-page';
import { isPaid, prOf, type TradeRecord, transactionOf } from './trades';

const tags = ['simulator'];

/**
 * The phone side: the page a code_url leads to, and the two things a person can do there.
 * Buttons post plain forms and are redirected (303) back to the page, which shows the outcome.
 */
export const scanRoutes =
  (core: SimulatorCore): FastifyPluginAsync =>
  async (app) => {
    const base = `${app.prefix}/scan`;

    const tradeOf = (pr: string): TradeRecord | undefined => {
      try {
        return core.trades.byCode(pr);
      } catch {
        return undefined;
      }
    };

    const orderOf = async (trade: TradeRecord): Promise<ScanOrder> => ({
      pr: trade.pr,
      merchantName: (await core.merchant(trade.mchid))?.name ?? `商户 ${trade.mchid}`,
      description: trade.description,
      outTradeNo: trade.outTradeNo,
      total: trade.total,
    });

    async function viewOf(trade: TradeRecord | undefined, outcome: string | undefined): Promise<ScanView> {
      if (!trade) return { kind: 'invalid' };
      const order = await orderOf(trade);
      if (isPaid(trade)) return { kind: outcome === 'paid' ? 'paid' : 'already-paid', order };
      if (trade.state === 'CLOSED') return { kind: 'expired', order };
      if (outcome === 'cancelled') return { kind: 'cancelled', order };
      return { kind: 'sheet', order, hasFailed: trade.state === 'PAYERROR' };
    }

    const html = (reply: FastifyReply, view: ScanView) =>
      reply
        .status(view.kind === 'invalid' ? 404 : 200)
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(renderScanPage(view, base));

    app.get(
      '/scan',
      { schema: { tags, summary: '模拟微信支付：扫码后的付款页（?pr= 或 ?code=code_url）' } },
      async (req, reply) => {
        const query = req.query as Record<string, string | undefined>;
        const pr = query.pr ?? prOf(query.code ?? '');
        return html(reply, await viewOf(pr ? tradeOf(pr) : undefined, query.result));
      },
    );

    /** Runs a person's action; answers JSON to a caller that asks for it, else redirects to the page. */
    const act =
      (action: (pr: string) => Promise<TradeRecord> | TradeRecord, outcome: string) =>
      async (req: FastifyRequest, reply: FastifyReply) => {
        const { pr } = req.params as { pr: string };
        const wantsJson = (req.headers.accept ?? '').includes('application/json');
        let done: TradeRecord | undefined;
        try {
          done = await action(pr);
        } catch (error) {
          if (!(error instanceof WechatpayRefusal)) throw error;
          if (wantsJson) return reply.status(error.status).send({ code: error.code, message: error.message });
          if (!tradeOf(pr)) return html(reply, { kind: 'invalid' });
        }
        if (wantsJson && done) return reply.send(transactionOf(done));
        const target = `${base}?pr=${encodeURIComponent(pr)}${done ? `&result=${outcome}` : ''}`;
        return reply.redirect(target, 303);
      };

    app.post(
      '/scan/:pr/pay',
      { schema: { tags, summary: '模拟微信支付：确认支付' } },
      act((pr) => core.pay(pr), 'paid'),
    );
    app.post(
      '/scan/:pr/fail',
      { schema: { tags, summary: '模拟微信支付：银行扣款失败' } },
      act((pr) => core.fail(pr), 'failed'),
    );
  };
