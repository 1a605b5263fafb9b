import {
  DEFAULT_ORDER_EXPIRE_MINUTES,
  PACK_MSG,
  PACK_ORDER_STATUS,
  packsApi,
  VOUCHER_MSG,
} from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { perAddress } from '../../plugins/rate-limit';
import { memberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import type { Limiter } from '../identity/limits';
import type { WechatPay } from '../payment/wechat-pay';
import { bindCode } from '../voucher/voucher.service';
import { checkBankCardNo } from './bank-card';
import { buyPack, queryPackOrder, virtualCode } from './pack-orders';
import {
  bindCard,
  cardCount,
  cashList,
  myCards,
  normalizeCode,
  packProductInfo,
  packProducts,
} from './packs.service';

/** Binding tries per member (any code) and per address: a code cannot be guessed by trying. */
const BINDS_PER_MEMBER = { limit: 5, windowSeconds: 3600 };
const BIND_PER_ADDRESS = perAddress({
  name: 'pack-bind',
  max: 20,
  windowSeconds: 3600,
  msg: () => PACK_MSG.tooMany,
});

/** Gift cards (issue 13): pack products, binding, my cards and their ledgers; ticket codes. */
export const packsRoutes: FastifyPluginAsync<{
  masterKey: Buffer;
  limiter: Limiter;
  /** WeChat purchases (wx_pc): the payment module, and how long an unpaid purchase waits. */
  wechat: WechatPay;
  orderExpireMinutes?: number;
}> = async (app, opts) => {
  const payDeps = {
    masterKey: opts.masterKey,
    wechat: opts.wechat,
    expireMinutes: opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES,
  };

  serve(app, packsApi.list, async (req) => ok({ list: await packProducts(req.ctx, siteOf(req.ctx).row.id) }));

  serve(app, packsApi.info, async (req) =>
    ok(await packProductInfo(req.ctx, siteOf(req.ctx).row.id, req.body.id)),
  );

  serve(
    app,
    packsApi.bind,
    async (req) => {
      const ctx = memberCtx(req.ctx);
      const hit = await opts.limiter.hit(
        `pack-bind:${ctx.site.row.id}:${ctx.member.id}`,
        BINDS_PER_MEMBER.limit,
        BINDS_PER_MEMBER.windowSeconds,
      );
      if (!hit.allowed) throw failure(PACK_MSG.tooMany);
      const card = await bindCard(ctx, opts.masterKey, req.body.code, req.body.pin);
      // A successful bind does not count against the member.
      await opts.limiter.reset(`pack-bind:${ctx.site.row.id}:${ctx.member.id}`);
      return ok({ card }, PACK_MSG.bound);
    },
    { config: BIND_PER_ADDRESS },
  );

  serve(app, packsApi.count, async (req) => ok(await cardCount(memberCtx(req.ctx))));

  serve(app, packsApi.canBind, async (req) => {
    memberCtx(req.ctx);
    const valid = normalizeCode(req.body.code) !== null;
    return ok({ canBind: valid, msg: valid ? '' : PACK_MSG.badCode });
  });

  serve(app, packsApi.page, async (req) => ok(await myCards(memberCtx(req.ctx), req.body.pageNum)));

  serve(app, packsApi.cashList, async (req) =>
    ok(await cashList(memberCtx(req.ctx), req.body.cardId, req.body.pageNum)),
  );

  serve(app, packsApi.submitAndPay, async (req) => {
    const { order, isNew } = await buyPack(memberCtx(req.ctx), payDeps, req.body);
    if (order.status === PACK_ORDER_STATUS.unpaid && order.wechat) return ok(order, PACK_MSG.scanToPay);
    return ok(order, isNew ? PACK_MSG.bought : undefined);
  });

  serve(app, packsApi.query, async (req) =>
    ok(await queryPackOrder(memberCtx(req.ctx), opts.wechat, req.body.orderNo)),
  );

  serve(app, packsApi.virtualCode, async (req) =>
    ok(await virtualCode(memberCtx(req.ctx), opts.masterKey, req.body.orderNo)),
  );

  serve(app, packsApi.unionBankCardNo, async (req) => {
    memberCtx(req.ctx);
    const checked = checkBankCardNo(req.body.cardNo);
    return ok(checked, checked.valid ? undefined : PACK_MSG.badBankCardNo);
  });

  // A paper ticket carries a voucher code: it is bound like one.
  serve(
    app,
    packsApi.ticketBind,
    async (req) => {
      const voucher = await bindCode(memberCtx(req.ctx), req.body.code);
      return ok({ kind: 'voucher' as const, name: voucher.name, id: voucher.id }, VOUCHER_MSG.claimed);
    },
    { config: BIND_PER_ADDRESS },
  );
};
