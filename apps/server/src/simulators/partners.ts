import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TObject, Type } from '@sinclair/typebox';
import { DEFAULT_ACTIVITY_CODE, identityApi, SiteId } from '@sitemall/contract';
import { ok } from '../lib/envelope';
import { hmacHex, openPartnerParams, partnerKeyOf, sealPartnerParams } from '../modules/identity/crypto';
import type { PartnerAdapters } from '../modules/identity/partners/adapters';

/**
 * Local stand-ins for the partners: they issue what the real partner would hand a shopper
 * (a bank ticket, encrypted login parameters, a DingTalk or messaging-app auth code) and
 * answer the server's exchange calls, all with keys derived from the deployment's partner key.
 */
const TICKET_TTL_MS = 5 * 60_000;
const nonce = () => randomBytes(12).toString('base64url');
const simKey = (master: Buffer, siteId: number, what: string) =>
  partnerKeyOf(master, siteId, `simulator:${what}`);

export function simulatedPartners(master: Buffer): PartnerAdapters {
  const open = (key: Buffer, sealed: string) => {
    const p = openPartnerParams(key, sealed);
    return p && typeof p.e === 'number' && p.e > Date.now() && typeof p.n === 'string' ? p : undefined;
  };
  return {
    bank: {
      async exchangeTicket(siteId, ticket) {
        const p = open(simKey(master, siteId, 'bank'), ticket);
        if (!p || p.s !== siteId) return undefined;
        return {
          userId: typeof p.u === 'string' ? p.u : '',
          phone: typeof p.p === 'string' ? p.p : undefined,
          ticketId: String(p.n),
          vipLevel: typeof p.vl === 'number' ? p.vl : undefined,
          vipExpiresAt: typeof p.vx === 'number' ? p.vx : undefined,
        };
      },
    },
    dingtalk: {
      async userByAuthCode(corpId, authCode) {
        const p = open(simKey(master, 0, `dingtalk:${corpId}`), authCode);
        if (!p || typeof p.u !== 'string') return undefined;
        return {
          corpId,
          userId: p.u,
          mobile: typeof p.m === 'string' ? p.m : undefined,
          codeId: String(p.n),
        };
      },
    },
    wechat: {
      appIdOf: (siteId) => `wxsim${String(siteId).padStart(12, '0')}`,
      async openIdByCode(siteId, code) {
        const p = open(simKey(master, siteId, 'wechat'), code);
        if (!p || typeof p.o !== 'string') return undefined;
        return { openId: p.o, codeId: String(p.n) };
      },
      async jsapiTicket(siteId) {
        return createHash('sha256')
          .update(simKey(master, siteId, 'jsapi'))
          .digest('base64url');
      },
    },
  };
}

/** What each simulator hands a shopper; used by the demo and by the tests. */
export const simulatorIssue = (master: Buffer) => {
  const expiry = () => Date.now() + TICKET_TTL_MS;
  const params = (siteId: number, partner: string, fields: object) =>
    sealPartnerParams(partnerKeyOf(master, siteId, partner), { ...fields, t: Date.now(), n: nonce() });
  return {
    bankTicket: (
      siteId: number,
      userId: string,
      phone?: string,
      vip?: { level: number; expiresAt?: number },
    ) =>
      sealPartnerParams(simKey(master, siteId, 'bank'), {
        s: siteId,
        u: userId,
        p: phone,
        vl: vip?.level,
        vx: vip?.expiresAt,
        e: expiry(),
        n: nonce(),
      }),
    normParams: (siteId: number, phone: string, cstNo: string) => params(siteId, 'norm', { phone, cstNo }),
    hrParams: (siteId: number, userId: string, phone?: string) => params(siteId, 'hr', { userId, phone }),
    activityParams: (siteId: number, userId: string, activityCode: string, invited: boolean) =>
      params(siteId, 'activity', { userId, activityCode, invited }),
    marketingParams: (siteId: number, userId: string, phone?: string) =>
      params(siteId, 'marketing', { userId, phone }),
    autoLoginQuery: (siteId: number, userId: string) => {
      const timestamp = Date.now();
      const n = nonce();
      const sign = hmacHex(partnerKeyOf(master, siteId, 'auto'), `${siteId}&${userId}&${timestamp}&${n}`);
      return { siteId, userId, timestamp, nonce: n, sign };
    },
    dingtalkCode: (corpId: string, userId: string, mobile?: string) =>
      sealPartnerParams(simKey(master, 0, `dingtalk:${corpId}`), {
        u: userId,
        m: mobile,
        e: expiry(),
        n: nonce(),
      }),
    wechatCode: (siteId: number, openId: string) =>
      sealPartnerParams(simKey(master, siteId, 'wechat'), { o: openId, e: expiry(), n: nonce() }),
  };
};

const Str = (maxLength = 64) => Type.String({ maxLength });
const Issued = (field: string) =>
  Type.Object({
    code: Type.Integer(),
    msg: Type.String(),
    success: Type.Boolean(),
    data: Type.Object({ [field]: Type.Unknown() }),
  });

/** GET /simulator/...: registered only while the simulators are enabled. */
export const partnerSimulatorRoutes: FastifyPluginAsyncTypebox<{ partnerKey: Buffer }> = async (
  app,
  opts,
) => {
  const issue = simulatorIssue(opts.partnerKey);
  /** Each simulator route hands out one value under one field name. */
  function simulate<Q extends TObject>(
    path: string,
    summary: string,
    field: string,
    querystring: Q,
    make: (query: Static<Q>) => unknown,
  ) {
    app.get(
      path,
      { schema: { tags: ['simulator'], summary, querystring, response: { 200: Issued(field) } } },
      async (req) => ok({ [field]: make(req.query as Static<Q>) }),
    );
  }
  const userQuery = Type.Object({ siteId: SiteId, userId: Str(), phone: Type.Optional(Str(32)) });

  simulate(
    '/simulator/bank/ticket',
    `模拟银行：签发一次性登录票据（用于 ${identityApi.haersLogin.path}）`,
    'ticket',
    userQuery,
    (q) => issue.bankTicket(q.siteId, q.userId, q.phone),
  );
  simulate(
    '/simulator/norm/authLoginParams',
    `模拟合作方：手机号 + 客户号加密参数（用于 ${identityApi.normLogin.path}）`,
    'authLoginParams',
    Type.Object({ siteId: SiteId, phone: Str(32), cstNo: Str() }),
    (q) => issue.normParams(q.siteId, q.phone, q.cstNo),
  );
  simulate(
    '/simulator/hr/loginParams',
    `模拟银行：加密登录参数（用于 ${identityApi.hrLogin.path}）`,
    'loginParams',
    userQuery,
    (q) => issue.hrParams(q.siteId, q.userId, q.phone),
  );
  simulate(
    '/simulator/activity/loginParams',
    '模拟合作方：活动登录参数（invited=false 模拟非受邀用户）',
    'loginParams',
    Type.Object({
      siteId: SiteId,
      userId: Str(),
      activityCode: Type.Optional(Str()),
      invited: Type.Optional(Type.Boolean({ default: true })),
    }),
    (q) =>
      issue.activityParams(q.siteId, q.userId, q.activityCode ?? DEFAULT_ACTIVITY_CODE, q.invited !== false),
  );
  simulate(
    '/simulator/marketing/loginParams',
    `模拟合作方：营销登录参数（用于 ${identityApi.marketingLogin.path}）`,
    'loginParams',
    userQuery,
    (q) => issue.marketingParams(q.siteId, q.userId, q.phone),
  );
  simulate(
    '/simulator/autoLogin/params',
    `模拟合作方：签名的自动登录参数（用于 GET ${identityApi.autoLogin.path}）`,
    'query',
    Type.Object({ siteId: SiteId, userId: Str() }),
    (q) => issue.autoLoginQuery(q.siteId, q.userId),
  );
  simulate(
    '/simulator/dingtalk/authCode',
    '模拟钉钉：免登授权码',
    'authCode',
    Type.Object({ corpId: Str(), userId: Str(), mobile: Type.Optional(Str(32)) }),
    (q) => issue.dingtalkCode(q.corpId, q.userId, q.mobile),
  );
  simulate(
    '/simulator/wechat/code',
    '模拟微信：网页授权 code',
    'code',
    Type.Object({ siteId: SiteId, openId: Str() }),
    (q) => issue.wechatCode(q.siteId, q.openId),
  );
};
