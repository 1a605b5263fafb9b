import { VOUCHER_MSG, VOUCHER_STATUS, voucherApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { perAddress } from '../../plugins/rate-limit';
import { memberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import {
  availableVouchers,
  bindCode,
  claimVoucher,
  countVouchers,
  findVouchers,
  parseVoucherIds,
  pendingReview,
  pricingLinesOf,
  useStatus,
  voucherCenter,
  voucherProducts,
} from './voucher.service';

/** Codes are guessable by brute force only if tries are unbounded: 20 per address per 10 minutes. */
const BIND_LIMIT = perAddress({
  name: 'voucher-bind',
  max: 20,
  windowSeconds: 600,
  msg: (s) => `兑换尝试过于频繁，请 ${Math.max(1, Math.ceil(s / 60))} 分钟后再试`,
});

/** The member's vouchers (issue 13): tabs, codes, the centre, and the checkout's choice. */
export const voucherRoutes: FastifyPluginAsync = async (app) => {
  serve(app, voucherApi.find, async (req) => ok(await findVouchers(memberCtx(req.ctx), req.body)));

  serve(app, voucherApi.count, async (req) => ok(await countVouchers(memberCtx(req.ctx))));

  serve(
    app,
    voucherApi.bind,
    async (req) => {
      const voucher = await bindCode(memberCtx(req.ctx), req.body.code);
      const msg =
        voucher.status === VOUCHER_STATUS.pendingReview ? VOUCHER_MSG.pendingReview : VOUCHER_MSG.claimed;
      return ok({ voucher }, msg);
    },
    { config: BIND_LIMIT },
  );

  serve(app, voucherApi.available, async (req) => {
    const ctx = memberCtx(req.ctx);
    const lines = await pricingLinesOf(ctx, req.body);
    const chosen = req.body.accVoucherIds === undefined ? undefined : parseVoucherIds(req.body.accVoucherIds);
    return ok(await availableVouchers(ctx, lines, chosen));
  });

  serve(app, voucherApi.availableCount, async (req) => {
    const ctx = memberCtx(req.ctx);
    const { list } = await availableVouchers(ctx, await pricingLinesOf(ctx, req.body));
    return ok({ count: list.filter((v) => v.usable).length });
  });

  serve(app, voucherApi.products, async (req) =>
    ok(await voucherProducts(req.ctx, siteOf(req.ctx).row.id, req.body.templateId, req.body.pageNum)),
  );

  serve(app, voucherApi.pendingReview, async (req) =>
    ok(await pendingReview(memberCtx(req.ctx), req.body.pageNum)),
  );

  serve(app, voucherApi.updateUseStatus, async (req) => ok(await useStatus(memberCtx(req.ctx), req.body.id)));

  serve(app, voucherApi.center, async (req) =>
    ok({ list: await voucherCenter(req.ctx, siteOf(req.ctx).row.id, req.ctx.member?.id) }),
  );

  serve(app, voucherApi.claim, async (req) => {
    const voucher = await claimVoucher(memberCtx(req.ctx), req.body.templateId);
    const msg =
      voucher.status === VOUCHER_STATUS.pendingReview ? VOUCHER_MSG.pendingReview : VOUCHER_MSG.claimed;
    return ok({ voucher }, msg);
  });
};
