import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { catalogApi as api } from '@sitemall/contract';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { type AddressLimit, minutesLeft, perAddress } from '../../plugins/rate-limit';
import { applyMerchant, merchantStatus, uploadLicence } from './merchant.service';

/** Anonymous writes and look-ups of merchant onboarding, per client address. */
export const MERCHANT_LIMITS = {
  upload: {
    name: 'licenceUpload',
    max: 10,
    windowSeconds: 3600,
    msg: (s) => `上传过于频繁，请${minutesLeft(s)}分钟后再试`,
  },
  merchantApply: {
    name: 'merchantApply',
    max: 10,
    windowSeconds: 3600,
    msg: (s) => `提交过于频繁，请${minutesLeft(s)}分钟后再试`,
  },
  merchantStatus: {
    name: 'merchantStatus',
    max: 10,
    windowSeconds: 60,
    msg: () => '查询过于频繁，请稍后再试',
  },
} satisfies Record<string, AddressLimit>;

export interface MerchantRoutesOptions {
  /** Absent: uploads are refused (an app built without a data folder). */
  dataDir?: string;
}

/** Merchant onboarding (spec section 1), declared in `catalogApi` with the shop street. */
export const merchantRoutes: FastifyPluginAsyncTypebox<MerchantRoutesOptions> = async (app, opts) => {
  const dataDir = () => {
    if (!opts.dataDir) throw failure('文件上传暂不可用');
    return opts.dataDir;
  };
  serve(app, api.licenceUpload, async (req) => ok(await uploadLicence(req.ctx, dataDir(), req.body.file)), {
    config: perAddress(MERCHANT_LIMITS.upload),
  });
  serve(
    app,
    api.merchantApply,
    async (req) => ok(await applyMerchant(req.ctx, dataDir(), req.body), '申请已提交，请等待审核'),
    { config: perAddress(MERCHANT_LIMITS.merchantApply) },
  );
  serve(app, api.merchantStatus, async (req) => ok({ list: await merchantStatus(req.ctx, req.body) }), {
    config: perAddress(MERCHANT_LIMITS.merchantStatus),
  });
};
