import { LOTTERY_MSG, lotteryApi, seckillApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { memberCtx } from '../cart/cart.service';
import {
  addOrderChance,
  claimGift,
  createWhiteUser,
  drawLottery,
  giftRecords,
  giftRecordsByWhiteCode,
  inMall,
  lotteryChances,
  lotteryRule,
  shareLottery,
} from './lottery';
import { activityById, activityList, marketingList } from './marketing';
import { activityTime, seckillToday } from './seckill';

/** Activities (issue 14): the flash sale's sessions and timing, marketing activities and the lottery. */
export const activityRoutes: FastifyPluginAsync = async (app) => {
  serve(app, seckillApi.seckill, async (req) => ok(await seckillToday(req.ctx)));
  serve(app, seckillApi.activityTime, async (req) => ok(await activityTime(req.ctx, req.body.productId)));

  serve(app, lotteryApi.list, async (req) => ok({ list: await activityList(req.ctx) }));
  serve(app, lotteryApi.get, async (req) => ok(await activityById(req.ctx, req.body.id, req.body.type)));
  serve(app, lotteryApi.inMall, async (req) => ok({ inMall: await inMall(req.ctx, req.body.code) }));
  serve(app, lotteryApi.rule, async (req) => ok(await lotteryRule(req.ctx, req.body.code)));
  serve(app, lotteryApi.chance, async (req) => ok(await lotteryChances(memberCtx(req.ctx), req.body.code)));
  serve(app, lotteryApi.addChance, async (req) =>
    ok(await addOrderChance(memberCtx(req.ctx), req.body.code, req.body.orderNo)),
  );
  serve(app, lotteryApi.start, async (req) => {
    const result = await drawLottery(memberCtx(req.ctx), req.body.code, req.body.requestId);
    return ok(result, result.msg);
  });
  serve(app, lotteryApi.share, async (req) => {
    const { chances, granted } = await shareLottery(memberCtx(req.ctx), req.body.code);
    return ok(chances, granted ? LOTTERY_MSG.shared : LOTTERY_MSG.sharedBefore);
  });
  serve(app, lotteryApi.giftRecords, async (req) =>
    ok({ list: await giftRecords(memberCtx(req.ctx), req.body.code) }),
  );
  serve(app, lotteryApi.giftRecordsByWhiteCode, async (req) =>
    ok({ list: await giftRecordsByWhiteCode(req.ctx, req.body.code, req.body.whiteCode) }),
  );
  serve(app, lotteryApi.claimGift, async (req) =>
    ok(await claimGift(memberCtx(req.ctx), req.body.giftId, req.body.addressId), '领取成功'),
  );
  serve(app, lotteryApi.createWhiteUser, async (req) =>
    ok(await createWhiteUser(memberCtx(req.ctx), req.query.code, req.query.whiteCode)),
  );
  serve(app, lotteryApi.marketingList, async (req) => ok(await marketingList(req.ctx, req.body)));
};
