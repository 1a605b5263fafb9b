import { AFTER_SALE_MSG, afterSaleApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { memberCtx } from '../cart/cart.service';
import { storeUploadedImage } from '../catalog/merchant';
import {
  applyCase,
  cancelCase,
  caseLogistics,
  memberCase,
  memberComment,
  memberComments,
  myCases,
  sevenDayCheck,
  shipReturn,
} from './aftersale.service';

export interface AfterSaleRoutesOptions {
  /** Where pictures are stored; absent: uploads are refused. */
  dataDir?: string;
}

/** After-sales for members (spec section 7: /api/afterSale/...). */
export const afterSaleRoutes: FastifyPluginAsync<AfterSaleRoutesOptions> = async (app, opts) => {
  serve(app, afterSaleApi.list, async (req) => ok(await myCases(memberCtx(req.ctx), req.body)));
  serve(app, afterSaleApi.apply, async (req) =>
    ok(await applyCase(memberCtx(req.ctx), req.body), AFTER_SALE_MSG.applied),
  );
  serve(app, afterSaleApi.cancel, async (req) =>
    ok(await cancelCase(memberCtx(req.ctx), req.body.afterSaleNo), AFTER_SALE_MSG.cancelled),
  );
  serve(app, afterSaleApi.delivery, async (req) =>
    ok(await shipReturn(memberCtx(req.ctx), req.body), AFTER_SALE_MSG.shipped),
  );
  serve(app, afterSaleApi.logistics, async (req) =>
    ok(await caseLogistics(memberCtx(req.ctx), req.body.afterSaleNo)),
  );
  serve(app, afterSaleApi.progress, async (req) =>
    ok(await memberCase(memberCtx(req.ctx), req.body.afterSaleNo)),
  );
  serve(app, afterSaleApi.commentList, async (req) =>
    ok({ list: await memberComments(memberCtx(req.ctx), req.body.afterSaleNo) }),
  );
  serve(app, afterSaleApi.comment, async (req) =>
    ok(
      { list: await memberComment(memberCtx(req.ctx), req.body.afterSaleNo, req.body.content) },
      AFTER_SALE_MSG.commented,
    ),
  );
  serve(app, afterSaleApi.sevenDayCheck, async (req) =>
    ok(await sevenDayCheck(memberCtx(req.ctx), req.body.orderNo)),
  );
  serve(app, afterSaleApi.upload, async (req) => {
    memberCtx(req.ctx);
    if (!opts.dataDir) throw failure('文件上传暂不可用');
    return ok(
      await storeUploadedImage(
        req.ctx.db,
        opts.dataDir,
        req.body.file,
        'aftersale',
        '请选择要上传的图片（字段 file）',
      ),
    );
  });
};
