import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { catalogApi as api } from '@sitemall/contract';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { type AddressLimit, minutesLeft, perAddress } from '../../plugins/rate-limit';
import { clientTips, leaveServiceMessage, myServiceMessages, serviceChannels } from './service.service';

/** Anonymous messages to customer service, per client address. */
export const SERVICE_LIMITS = {
  serviceMessage: {
    name: 'serviceMessage',
    max: 5,
    windowSeconds: 3600,
    msg: (s) => `留言过于频繁，请${minutesLeft(s)}分钟后再试`,
  },
} satisfies Record<string, AddressLimit>;

/** Mall customer service and client tips (spec section 7), declared in `catalogApi`. */
export const serviceRoutes: FastifyPluginAsyncTypebox<{ hotlineKey: Buffer }> = async (app, opts) => {
  serve(app, api.serviceChannels, async (req) => ok(await serviceChannels(req.ctx, opts.hotlineKey)));
  serve(
    app,
    api.serviceMessage,
    async (req) => ok(await leaveServiceMessage(req.ctx, req.body), '留言已提交，客服会尽快联系您'),
    { config: perAddress(SERVICE_LIMITS.serviceMessage) },
  );
  serve(app, api.myServiceMessages, async (req) => ok(await myServiceMessages(req.ctx, req.body.pageNum)));
  serve(app, api.clientTips, async (req) => ok(await clientTips(req.ctx)));
};
