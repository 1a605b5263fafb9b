import { createPublicKey } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import {
  AccountLoginBody,
  ActivityLoginBody,
  AutoLoginQuery,
  BindMobileBody,
  BindMobileReply,
  CheckBoundUserReply,
  CheckTokenBody,
  CheckTokenReply,
  DingtalkLoginBody,
  EmptyReply,
  ENCRYPTION,
  FindPasswordBody,
  GatewayAuthBody,
  GatewayAuthReply,
  GetOpenIdBody,
  GetOpenIdReply,
  HaersAuthLoginBody,
  HrAuthLoginBody,
  IDENTITY_MSG,
  ImageCodeQuery,
  ImageCodeReply,
  IsRegisteredBody,
  IsRegisteredReply,
  LoginReply,
  type LoginResult,
  LogoutBody,
  MarketingLoginBody,
  MemberInfoBody,
  MemberInfoReply,
  MSG,
  NormAuthLoginBody,
  OpenIdBody,
  PartnerLoginReply,
  PayOpenIdBody,
  PayOpenIdReply,
  PhoneCheckBody,
  PhoneCheckReply,
  PublicKeyReply,
  PwdLoginBody,
  RegisterBody,
  SendCodeBody,
  SendSmsCodeBody,
  SendSmsCodeReply,
  SmsLoginBody,
  UptPasswordBody,
  ValidateCodeBody,
  ValidateCodeReply,
  WxAppIdBody,
  WxAppIdReply,
  WxConfigBody,
  WxConfigReply,
} from '@sitemall/contract';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../lib/envelope';
import { AppError } from '../../lib/errors';
import { type AddressLimit, clientAddress, perAddress } from '../../plugins/rate-limit';
import { issueImageCode } from './captcha';
import type { IdentityCtx, IdentityDeps } from './deps';
import * as identity from './identity.service';
import * as sso from './partners/sso';
import * as wechat from './partners/wechat';

const site = { site: 'required' } as const;

const busy = () => IDENTITY_MSG.tooManyRequests;
/** Anonymous calls that draw, send or look something up, per client address. */
export const IDENTITY_LIMITS = {
  imageCode: { name: 'captcha', max: 60, windowSeconds: 60, msg: busy },
  /** A burst guard in front of the hourly SMS caps of sms.ts. */
  sendSms: { name: 'sms', max: 10, windowSeconds: 60, msg: busy },
  isRegistered: { name: 'isRegistered', max: 10, windowSeconds: 60, msg: busy },
} satisfies Record<string, AddressLimit>;
const member = { auth: 'required' } as const;
const siteAndMember = { site: 'required', auth: 'required' } as const;

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
  const tags = ['identity'];
  const partnerTags = ['identity: partner login'];
  const wxTags = ['identity: messaging app'];

  // ----- keys and anti-automation --------------------------------------------------------
  const spki = createPublicKey(opts.deps.secrets.rsaPublicKeyPem).export({ type: 'spki', format: 'der' });
  const publicKey = ok({
    algorithm: ENCRYPTION.algorithm,
    publicKey: opts.deps.secrets.rsaPublicKeyPem,
    spki: spki.toString('base64'),
    maxSkewMs: ENCRYPTION.maxSkewMs,
  });
  app.get(
    '/app/client/publicKey',
    {
      schema: {
        tags,
        summary: '密码加密公钥（RSA-OAEP SHA-256；明文为 JSON {v, n, t}）',
        response: { 200: PublicKeyReply },
      },
    },
    async () => publicKey,
  );

  app.get(
    '/app/client/imageCode',
    {
      config: { ...site, ...perAddress(IDENTITY_LIMITS.imageCode) },
      schema: {
        tags,
        summary: '图形验证码（SVG；发送短信验证码前需要）',
        querystring: ImageCodeQuery,
        response: { 200: ImageCodeReply },
      },
    },
    async (req) => ok(await issueImageCode(req.ctx.db, req.query.siteId)),
  );

  // ----- SMS ---------------------------------------------------------------------------------
  app.post(
    '/app/client/sendSmsCode',
    {
      config: { ...site, ...perAddress(IDENTITY_LIMITS.sendSms) },
      schema: {
        tags,
        summary: '发送短信验证码（6 位，5 分钟有效，60 秒后可重发；需图形验证码）',
        body: SendSmsCodeBody,
        response: { 200: SendSmsCodeReply },
      },
    },
    async (req) => ok(await identity.sendCode(ctx(req), req.body), IDENTITY_MSG.codeSent),
  );
  app.post(
    '/app/client/smsLogin',
    {
      config: site,
      schema: {
        tags,
        summary: '短信验证码登录（登录方式 2）',
        body: SmsLoginBody,
        response: { 200: LoginReply },
      },
    },
    async (req) => ok(await identity.smsLogin(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  app.post(
    '/app/client/sendCode',
    {
      config: siteAndMember,
      schema: {
        tags,
        summary: '向当前会员手机发送校验验证码',
        body: SendCodeBody,
        response: { 200: SendSmsCodeReply },
      },
    },
    async (req) => ok(await identity.sendVerifyCode(ctx(req)), IDENTITY_MSG.codeSent),
  );
  app.post(
    '/app/client/validateCode',
    {
      config: siteAndMember,
      schema: {
        tags,
        summary: '校验当前会员手机收到的验证码（一次有效）',
        body: ValidateCodeBody,
        response: { 200: ValidateCodeReply },
      },
    },
    async (req) => ok(await identity.validateCode(ctx(req), req.body)),
  );

  // ----- password, account, registration -------------------------------------------------
  app.post(
    '/app/client/pwdLogin',
    {
      config: site,
      schema: {
        tags,
        summary:
          '密码登录（登录方式 1：手机号 + 加密密码；失败较多时需图形验证码，同一地址对同一账号逐次延时）',
        body: PwdLoginBody,
        response: { 200: LoginReply },
      },
    },
    async (req) => ok(await identity.pwdLogin(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  app.post(
    '/app/client/accountLogin',
    {
      config: site,
      schema: {
        tags,
        summary: '账号登录（登录方式 3：账号 + 加密密码；失败较多时需图形验证码）',
        body: AccountLoginBody,
        response: { 200: LoginReply },
      },
    },
    async (req) => ok(await identity.accountLogin(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  app.post(
    '/app/client/register',
    {
      config: site,
      schema: {
        tags,
        summary: '注册（仅 configJson.showRegister = Y 的站点；验证码用途 register）',
        body: RegisterBody,
        response: { 200: LoginReply },
      },
    },
    async (req) => ok(await identity.register(ctx(req), req.body), IDENTITY_MSG.registered),
  );
  app.post(
    '/app/client/isRegistered',
    {
      config: { ...site, ...perAddress(IDENTITY_LIMITS.isRegistered) },
      schema: {
        tags,
        summary: '手机号是否已注册（需图形验证码，登录会员查询本人手机号除外；每地址每分钟 10 次）',
        body: IsRegisteredBody,
        response: { 200: IsRegisteredReply },
      },
    },
    async (req) => ok(await identity.isRegistered(ctx(req), req.body)),
  );
  app.post(
    '/app/client/findPassword',
    {
      config: site,
      schema: {
        tags,
        summary: '找回密码（短信验证码 findPassword + 两次加密新密码；会员全部会话失效）',
        body: FindPasswordBody,
        response: { 200: EmptyReply },
      },
    },
    async (req) => {
      await identity.findPassword(ctx(req), req.body);
      return ok(null, IDENTITY_MSG.passwordReset);
    },
  );
  app.post(
    '/sys/user/personal/uptPassword',
    {
      config: member,
      schema: {
        tags,
        summary: '修改密码（表单；oldPsw、newPsw1、newPsw2 均加密；其他会话失效）',
        security: [{ token: [] }],
        body: UptPasswordBody,
        response: { 200: EmptyReply },
      },
    },
    async (req) => {
      await identity.uptPassword(ctx(req), req.body);
      return ok(null, MSG.passwordChanged);
    },
  );

  // ----- session -------------------------------------------------------------------------------
  app.post(
    '/app/client/checkToken',
    {
      config: site,
      schema: {
        tags,
        summary: '校验登录令牌：有效 200；缺少或未知 401；过期、已退出、被顶替或属于其他站点 416',
        body: CheckTokenBody,
        response: { 200: CheckTokenReply },
      },
    },
    async (req) => ok(await identity.checkToken(ctx(req), req.body)),
  );
  app.post(
    '/app/client/logout',
    {
      config: member,
      schema: {
        tags,
        summary: '退出：令牌在服务端立即失效',
        security: [{ token: [] }],
        body: LogoutBody,
        response: { 200: EmptyReply },
      },
    },
    async (req) => {
      await identity.logout(ctx(req));
      return ok(null, IDENTITY_MSG.loggedOut);
    },
  );
  app.post(
    '/sys/user/personal/info',
    {
      config: member,
      schema: {
        tags,
        summary: '个人中心：会员信息',
        security: [{ token: [] }],
        body: MemberInfoBody,
        response: { 200: MemberInfoReply },
      },
    },
    async (req) => ok(await identity.personalInfo(ctx(req))),
  );
  app.post(
    '/app/client/phoneCheck',
    {
      config: siteAndMember,
      schema: {
        tags,
        summary: '手机号是否为当前会员的手机号',
        security: [{ token: [] }],
        body: PhoneCheckBody,
        response: { 200: PhoneCheckReply },
      },
    },
    async (req) => ok(await identity.phoneCheck(ctx(req), req.body)),
  );

  // ----- messaging app ------------------------------------------------------------------------
  app.post(
    '/app/client/wxAppId',
    {
      config: site,
      schema: {
        tags: wxTags,
        summary: '站点的公众号 appId',
        body: WxAppIdBody,
        response: { 200: WxAppIdReply },
      },
    },
    async (req) => ok(wechat.wxAppId(ctx(req))),
  );
  app.post(
    '/app/client/wxConfig',
    {
      config: site,
      schema: {
        tags: wxTags,
        summary: 'JS-SDK 配置签名',
        body: WxConfigBody,
        response: { 200: WxConfigReply },
      },
    },
    async (req) => ok(await wechat.wxConfig(ctx(req), req.body)),
  );
  app.post(
    '/app/client/getOpenId',
    {
      config: site,
      schema: {
        tags: wxTags,
        summary: '网页授权 code 换 openId（附 10 分钟有效的 openIdSign）及是否已绑定',
        body: GetOpenIdBody,
        response: { 200: GetOpenIdReply },
      },
    },
    async (req) => ok(await wechat.getOpenId(ctx(req), req.body)),
  );
  app.post(
    '/app/client/checkBoundUser',
    {
      config: site,
      schema: {
        tags: wxTags,
        summary: 'openId 是否已绑定会员',
        body: OpenIdBody,
        response: { 200: CheckBoundUserReply },
      },
    },
    async (req) => ok(await wechat.checkBoundUser(ctx(req), req.body)),
  );
  app.post(
    '/app/client/tokenByOpenId',
    {
      config: site,
      schema: {
        tags: wxTags,
        summary: 'openId 登录：已绑定会员的令牌',
        body: OpenIdBody,
        response: { 200: LoginReply },
      },
    },
    async (req) => ok(await wechat.tokenByOpenId(ctx(req), req.body), IDENTITY_MSG.loggedIn),
  );
  app.post(
    '/app/client/payOpenId',
    {
      config: siteAndMember,
      schema: {
        tags: wxTags,
        summary: '支付用 openId（绑定到当前会员）',
        security: [{ token: [] }],
        body: PayOpenIdBody,
        response: { 200: PayOpenIdReply },
      },
    },
    async (req) => ok(await wechat.payOpenId(ctx(req), req.body)),
  );
  app.post(
    '/app/client/bindMobile',
    {
      config: site,
      schema: {
        tags: wxTags,
        summary: '绑定手机号：已登录则设置手机号；未登录凭 openId + openIdSign 绑定并登录',
        body: BindMobileBody,
        response: { 200: BindMobileReply },
      },
    },
    async (req) => ok(await wechat.bindMobile(ctx(req), req.body), IDENTITY_MSG.bound),
  );

  // ----- partner logins ------------------------------------------------------------------------
  /** Each partner login: its own payload, the shared answer of partnerAnswer. */
  function partnerLogin<B extends TSchema>(
    path: string,
    summary: string,
    body: B,
    login: (ctx: IdentityCtx, input: Static<B>) => Promise<LoginResult>,
  ) {
    app.post(
      path,
      { config: site, schema: { tags: partnerTags, summary, body, response: { 200: PartnerLoginReply } } },
      async (req) => partnerAnswer(() => login(ctx(req), req.body as Static<B>)),
    );
  }
  partnerLogin('/api/haers/authLogin', '银行票据登录（票据一次有效）', HaersAuthLoginBody, sso.haersLogin);
  partnerLogin(
    '/api/norm/phoneAndCstNo/authLogin',
    '手机号 + 客户号登录（合作方以站点密钥加密 authLoginParams）',
    NormAuthLoginBody,
    sso.normLogin,
  );
  partnerLogin('/api/hr/authLogin', '加密参数银行登录（loginParams）', HrAuthLoginBody, sso.hrLogin);
  partnerLogin(
    '/app/client/h5mircoApp/dingtalkLogin',
    '钉钉免登（urlencoded；corpId + authCode；仅 dingtalkAuthSwitch = 1 的站点）',
    DingtalkLoginBody,
    sso.dingtalkLogin,
  );
  partnerLogin(
    '/api/activity/login',
    '活动登录（非受邀用户：code 500，data.authErrUrl）',
    ActivityLoginBody,
    sso.activityLogin,
  );
  partnerLogin('/api/marketing/login', '营销登录', MarketingLoginBody, sso.marketingLogin);
  app.get(
    '/app/client/autoLogin',
    {
      config: site,
      schema: {
        tags: partnerTags,
        summary: '自动登录（GET 签名参数；一次有效，5 分钟内）',
        querystring: AutoLoginQuery,
        response: { 200: LoginReply },
      },
    },
    async (req) => ok(await sso.autoLogin(ctx(req), req.query), IDENTITY_MSG.loggedIn),
  );
  app.post(
    '/api/gateway/auth',
    {
      config: siteAndMember,
      schema: {
        tags: partnerTags,
        summary: '网关授权：为合作网关签发 5 分钟一次性授权码',
        security: [{ token: [] }],
        body: GatewayAuthBody,
        response: { 200: GatewayAuthReply },
      },
    },
    async (req) => ok(await sso.gatewayAuth(ctx(req), req.body)),
  );
};
