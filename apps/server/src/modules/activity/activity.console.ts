import { adminActivityApi, XLSX_TYPE } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { chinaTime } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from '../admin/admin.service';
import { listBenefits, saveBenefit } from './benefit-console';
import {
  endLottery,
  exportGifts,
  listDraws,
  listGifts,
  listLotteries,
  lotteryResults,
  saveLottery,
  savePrize,
} from './lottery-console';
import { endSeckill, listSeckill, listSessions, saveSeckill, saveSession } from './seckill-console';
import { addWhiteUser, importWhiteUsers, listWhiteUsers, removeWhiteUser } from './white-users';

/**
 * The activity screens of the operator console (contract `adminActivityApi`), registered inside
 * the console's plugin (app.ts `families`), whose hooks resolve the operator, check the
 * route's permission and the payload's site scope before these handlers run.
 */
export const activityConsole: FastifyPluginAsync = async (app) => {
  const api = adminActivityApi;
  serve(app, api.seckillSessions, async (req) =>
    ok({ list: await listSessions(operatorOf(req), req.query.siteId) }),
  );
  serve(app, api.saveSeckillSession, async (req) =>
    ok(await saveSession(operatorOf(req), req.body), '已保存'),
  );
  serve(app, api.seckillActivities, async (req) => ok(await listSeckill(operatorOf(req), req.query)));
  serve(app, api.saveSeckillActivity, async (req) =>
    ok(await saveSeckill(operatorOf(req), req.body), '已保存'),
  );
  serve(app, api.endSeckillActivity, async (req) =>
    ok(await endSeckill(operatorOf(req), req.body), '活动已结束'),
  );

  serve(app, api.lotteries, async (req) => ok(await listLotteries(operatorOf(req), req.query)));
  serve(app, api.saveLottery, async (req) => ok(await saveLottery(operatorOf(req), req.body), '已保存'));
  serve(app, api.endLottery, async (req) => ok(await endLottery(operatorOf(req), req.body), '活动已结束'));
  serve(app, api.savePrize, async (req) => ok(await savePrize(operatorOf(req), req.body), '奖品已保存'));
  serve(app, api.draws, async (req) => ok(await listDraws(operatorOf(req), req.query)));
  serve(app, api.gifts, async (req) => ok(await listGifts(operatorOf(req), req.query)));
  serve(app, api.exportGifts, async (req, reply) => {
    const { file, name } = await exportGifts(operatorOf(req), req.query);
    const day = chinaTime(new Date(), 'YYYYMMDD');
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="gifts-${name}-${day}.xlsx"`)
      .send(file);
  });
  serve(app, api.whiteUsers, async (req) => ok(await listWhiteUsers(operatorOf(req), req.query)));
  serve(app, api.addWhiteUser, async (req) =>
    ok(await addWhiteUser(operatorOf(req), req.body), '已添加受邀用户'),
  );
  serve(app, api.removeWhiteUser, async (req) => {
    await removeWhiteUser(operatorOf(req), req.body);
    return ok(null, '已移除受邀用户');
  });
  serve(app, api.importWhiteUsers, async (req) => {
    const report = await importWhiteUsers(operatorOf(req), req.body);
    return ok(report, `导入 ${report.created} 行，已存在 ${report.existing} 行，错误 ${report.errors} 行`);
  });
  serve(app, api.benefits, async (req) => ok(await listBenefits(operatorOf(req), req.query)));
  serve(app, api.saveBenefit, async (req) => ok(await saveBenefit(operatorOf(req), req.body), '已保存'));
  serve(app, api.lotteryResults, async (req) => ok(await lotteryResults(operatorOf(req), req.query)));
};
