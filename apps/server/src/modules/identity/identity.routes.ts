import { createPublicKey } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ENCRYPTION, IDENTITY_MSG, identityApi, type LoginResult, MSG } from '@sitemall/contract';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../lib/envelope';
import { AppError } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { type AddressLimit, clientAddress, perAddress } from '../../plugins/rate-limit';
import { issueImageCode } from './captcha';
import type { IdentityCtx, IdentityDeps } from './deps';
import * as identity from './identity.service';
import * as sso from './partners/sso';
import * as wechat from './partners/wechat';

const busy = () => IDENTITY_MSG.tooManyRequests;
/** Anonymous calls that draw, send or look something up, per client address. */
export const IDENTITY_LIMITS = {
  imageCode: { name: 'captcha', max: 60, windowSeconds: 60, msg: busy },
  /** A burst guard in front of the hourly SMS caps of sms.ts. */
  sendSms: { name: 'sms', max: 10, windowSeconds: 60, msg: busy },
  isRegistered: { name: 'isRegistered', max: 10, windowSeconds: 60, msg: busy },
} satisfies Record<string, AddressLimit>;

/**
 * Partner logins answer success, token, user, msg (spec section 7) in data, also on failure,
 * where an invited-only activity adds authErrUrl (section 6).
 */
async function partnerAnswer(run: () => Promise<LoginResult>) {
  try {
    const result = await run();
    return ok({ success: true, msg: IDENTITY_MSG.loggedIn, ...result }, IDENTITY_MSG.loggedIn);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const authErrUrl = error instanceof sso.PartnerDenied ? error.authErrUrl : undefined;
    return {
      code: error.code,
      msg: error.msg,
      success: false,
      data: { success: false, msg: error.msg, ...(authErrUrl ? { authErrUrl } : {}) },
    };
  }
}

export const identityRoutes: FastifyPluginAsyncTypebox<{ deps: IdentityDeps }> = async (app, opts) => {
  const ctx = (req: FastifyRequest): IdentityCtx => ({
    ...req.ctx,
    ip: clientAddress(req),
    deps: opts.deps,
    log: req.log,
  });
  const api = identityApi;

  // ----- keys and anti-automation --------------------------------------------------------
  const spki = createPublicKey(opts.deps.secrets.rsaPublicKeyPem).export({ type: 'spki', format: 'der' });
  const publicKey = ok({
    algorithm: ENCRYPTION.algorithm,
    publicKey: opts.deps.secrets.rsaPublicKeyPem,
    spki: spki.toString('base64'),
    maxSkewMs: ENCRYPTION.maxSkewMs,
  });
  serve(app, api.publicKey, async () => publicKey);
  serve(app, api.imageCode, async (req) => ok(await issueImageCode(req.ctx, req.query.siteId)), {
    config: perAddress(IDENTITY_LIMITS.imageCode),
  });

  // ----- SMS ---------------------------------------------------------------------------------
  serve(
    app,
    api.sendSmsCode,
    async (req) => ok(await identity.sendCode(ctx(req), req.body), IDENTITY_MSG.codeSent),
    {
      config: perAddress(IDENTITY_LIMITS.sendSms),
    },
  );
  serve(app, api.smsLogin, async (req) =>
    ok(await identity.smsLogin(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  serve(app, api.sendCode, async (req) => ok(await identity.sendVerifyCode(ctx(req)), IDENTITY_MSG.codeSent));
  serve(app, api.validateCode, async (req) => ok(await identity.validateCode(ctx(req), req.body)));

  // ----- password, account, registration -------------------------------------------------
  serve(app, api.pwdLogin, async (req) =>
    ok(await identity.pwdLogin(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  serve(app, api.accountLogin, async (req) =>
    ok(await identity.accountLogin(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  serve(app, api.register, async (req) =>
    ok(await identity.register(ctx(req), req.body), IDENTITY_MSG.registered),
  );
  serve(app, api.isRegistered, async (req) => ok(await identity.isRegistered(ctx(req), req.body)), {
    config: perAddress(IDENTITY_LIMITS.isRegistered),
  });
  serve(app, api.findPassword, async (req) => {
    await identity.findPassword(ctx(req), req.body);
    return ok(null, IDENTITY_MSG.passwordReset);
  });
  serve(app, api.uptPassword, async (req) => {
    await identity.uptPassword(ctx(req), req.body);
    return ok(null, MSG.passwordChanged);
  });

  // ----- session -------------------------------------------------------------------------------
  serve(app, api.checkToken, async (req) => ok(await identity.checkToken(ctx(req), req.body)));
  serve(app, api.logout, async (req) => {
    await identity.logout(ctx(req));
    return ok(null, IDENTITY_MSG.loggedOut);
  });
  serve(app, api.personalInfo, async (req) => ok(await identity.personalInfo(ctx(req))));
  serve(app, api.phoneCheck, async (req) => ok(await identity.phoneCheck(ctx(req), req.body)));

  // ----- messaging app ------------------------------------------------------------------------
  serve(app, api.wxAppId, async (req) => ok(wechat.wxAppId(ctx(req))));
  serve(app, api.wxConfig, async (req) => ok(await wechat.wxConfig(ctx(req), req.body)));
  serve(app, api.getOpenId, async (req) => ok(await wechat.getOpenId(ctx(req), req.body)));
  serve(app, api.checkBoundUser, async (req) => ok(await wechat.checkBoundUser(ctx(req), req.body)));
  serve(app, api.tokenByOpenId, async (req) =>
    ok(await wechat.tokenByOpenId(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  serve(app, api.payOpenId, async (req) => ok(await wechat.payOpenId(ctx(req), req.body)));
  serve(app, api.bindMobile, async (req) =>
    ok(await wechat.bindMobile(ctx(req), req.body), IDENTITY_MSG.bound),
  );

  // ----- partner logins ------------------------------------------------------------------------
  serve(app, api.haersLogin, async (req) => partnerAnswer(() => sso.haersLogin(ctx(req), req.body)));
  serve(app, api.normLogin, async (req) => partnerAnswer(() => sso.normLogin(ctx(req), req.body)));
  serve(app, api.hrLogin, async (req) => partnerAnswer(() => sso.hrLogin(ctx(req), req.body)));
  serve(app, api.dingtalkLogin, async (req) => partnerAnswer(() => sso.dingtalkLogin(ctx(req), req.body)));
  serve(app, api.activityLogin, async (req) => partnerAnswer(() => sso.activityLogin(ctx(req), req.body)));
  serve(app, api.marketingLogin, async (req) => partnerAnswer(() => sso.marketingLogin(ctx(req), req.body)));
  serve(app, api.autoLogin, async (req) =>
    ok(await sso.autoLogin(ctx(req), req.query), IDENTITY_MSG.loggedIn),
  );
  serve(app, api.gatewayAuth, async (req) => ok(await sso.gatewayAuth(ctx(req), req.body)));
};
