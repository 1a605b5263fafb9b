import type { FastifyPluginAsync } from 'fastify';
import type { SimulatorCore } from './index';
import { codeUrlOf, transactionOf } from './trades';

const LATEST = 50;
const tags = ['simulator'];

/** What a developer wants to see while trying payments out: recent trades and notify attempts. */
export const devRoutes =
  (core: SimulatorCore): FastifyPluginAsync =>
  async (app) => {
    app.get('/trades', { schema: { tags, summary: '模拟微信支付：最近的交易（最新在前）' } }, async () =>
      core.trades.latest(LATEST).map((trade) => ({
        ...transactionOf(trade),
        description: trade.description,
        notify_url: trade.notifyUrl,
        ...(trade.timeExpire ? { time_expire: trade.timeExpire } : {}),
        code_url: codeUrlOf(trade.pr),
        scan_url: `${app.prefix}/scan?pr=${encodeURIComponent(trade.pr)}`,
      })),
    );

    app.get(
      '/notifies',
      { schema: { tags, summary: '模拟微信支付：最近的通知投递（最新在前）' } },
      async () => core.notifier.deliveries().slice(-LATEST).reverse(),
    );
  };
