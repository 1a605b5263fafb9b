import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type Endpoint, endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { EpochMs } from './numbers.ts';
import { NoQuery, SiteId } from './site.ts';

/**
 * Identity: members, sessions and every way in and out of a site (spec sections 3, 5, 7, 9).
 * Secret fields (passwords) travel as `Encrypted`: see `ENCRYPTION` below.
 */

/** How the browser encrypts a secret field before sending it. */
export const ENCRYPTION = {
  /** WebCrypto `{ name: 'RSA-OAEP', hash: 'SHA-256' }` with the key of GET /app/client/publicKey. */
  algorithm: 'RSA-OAEP-256',
  /** A ciphertext whose timestamp is further than this from the server's clock is refused. */
  maxSkewMs: 5 * 60_000,
} as const;

/**
 * The plaintext the browser encrypts: the secret, a fresh random nonce and the time in ms.
 * The server accepts each nonce once, so a captured ciphertext cannot be replayed.
 */
export interface SecretEnvelope {
  v: string;
  n: string;
  t: number;
}

/** SMS code purposes: a code is bound to one phone, one site and one purpose. */
export const SMS_PURPOSES = ['login', 'register', 'findPassword', 'bindMobile', 'verify'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 300;

export const IDENTITY_MSG = {
  loggedIn: '登录成功',
  loggedOut: '退出成功',
  registered: '注册成功',
  passwordReset: '密码已重置，请重新登录',
  codeSent: '验证码已发送',
  bound: '绑定成功',
  wrongPhoneOrPassword: '手机号或密码错误',
  wrongAccountOrPassword: '账号或密码错误',
  wrongOldPassword: '原始密码不正确',
  samePassword: '新密码不能与原始密码相同',
  noPassword: '该账号尚未设置密码，请使用验证码登录',
  memberDisabled: '账号已停用，请联系客服',
  badPhone: '请输入正确的手机号',
  badUsername: '请输入正确的账号',
  phoneRegistered: '该手机号已注册',
  usernameTaken: '该账号已被使用',
  phoneNotRegistered: '该手机号未注册',
  phoneBoundElsewhere: '该手机号已被其他账号绑定',
  registerClosed: '本站点未开放注册',
  badCiphertext: '加密数据无效，请刷新页面后重试',
  staleCiphertext: '请求已失效，请刷新页面后重试',
  wrongCode: '验证码错误',
  codeExpired: '验证码已失效，请重新获取',
  codeAttemptsExceeded: '验证码错误次数过多，请重新获取',
  badCodeFormat: '请输入6位数字验证码',
  resendTooSoon: (seconds: number) => `发送过于频繁，请${seconds}秒后再试`,
  /** The real wait of the cap that stopped the code (hourly or daily), never "今日" for an hourly cap. */
  smsLimit: (seconds: number) =>
    seconds > 3600
      ? `获取验证码次数过多，请${Math.ceil(seconds / 3600)}小时后再试`
      : `获取验证码次数过多，请${Math.max(1, Math.ceil(seconds / 60))}分钟后再试`,
  wrongImageCode: '图形验证码错误或已失效',
  tooManyAttempts: (seconds: number) => `尝试次数过多，请${Math.max(1, Math.ceil(seconds / 60))}分钟后再试`,
  tooManyRequests: '操作过于频繁，请稍后再试',
  /** Asked for after failed logins or before a look-up by phone; the storefront then shows the image code. */
  imageCodeRequired: '请输入图形验证码',
  /** Failed logins from one address to one account wait a little longer each time. */
  loginDelay: (seconds: number) => `尝试次数过多，请${Math.max(1, seconds)}秒后再试`,
  partnerUnavailable: '授权登录失败，请重新进入',
  dingtalkOff: '本站点未开启钉钉登录',
  notBound: '尚未绑定账号，请先绑定手机号',
  openIdProof: '授权已失效，请重新授权',
} as const;

// ----- Field shapes ---------------------------------------------------------------------

export const Phone = Type.String({ maxLength: 32, description: '手机号：11 位，以 1 开头' });
export const Username = Type.String({ maxLength: 64, description: '账号' });
export const Encrypted = Type.String({
  maxLength: 1024,
  description: 'base64 of RSA-OAEP-256 ciphertext of JSON {v: secret, n: nonce, t: ms timestamp}',
});
export const SmsCode = Type.String({ maxLength: 16, description: '6 位短信验证码' });
export const SmsPurpose = Type.Union(
  SMS_PURPOSES.map((p) => Type.Literal(p)),
  { description: 'login | register | findPassword | bindMobile | verify' },
);
const Opaque = (description: string, maxLength = 2048) => Type.String({ maxLength, description });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const LoginUser = Type.Object({
  id: Type.Integer(),
  phone: Nullable(Type.String()),
  username: Nullable(Type.String()),
});
export type LoginUser = Static<typeof LoginUser>;

/** Login result (spec section 3): token and user. */
export const LoginResult = Type.Object({ token: Type.String(), user: LoginUser });
export type LoginResult = Static<typeof LoginResult>;
export const LoginReply = Envelope(LoginResult);

/** Partner logins answer success, token, user, msg (spec section 7). */
export const PartnerLoginResult = Type.Object({
  success: Type.Boolean(),
  msg: Type.String(),
  token: Type.Optional(Type.String()),
  user: Type.Optional(LoginUser),
  /** Invited-only activity: where the storefront may send the shopper (section 6). */
  authErrUrl: Type.Optional(Type.String()),
});
export type PartnerLoginResult = Static<typeof PartnerLoginResult>;
export const PartnerLoginReply = Envelope(PartnerLoginResult);

export const EmptyReply = Envelope(Type.Null());

// ----- Keys and anti-automation ---------------------------------------------------------------

export const PublicKey = Type.Object({
  algorithm: Type.Literal(ENCRYPTION.algorithm),
  publicKey: Type.String({ description: 'SPKI PEM' }),
  spki: Type.String({ description: 'base64 DER of the SPKI, for crypto.subtle.importKey("spki")' }),
  maxSkewMs: Type.Integer(),
});
export type PublicKey = Static<typeof PublicKey>;
export const PublicKeyReply = Envelope(PublicKey);

export const ImageCodeQuery = Type.Object({ siteId: SiteId });
export const ImageCode = Type.Object({
  captchaId: Type.String(),
  svg: Type.String({ description: 'image/svg+xml of 4 characters; case-insensitive; 5 minutes; single use' }),
});
export type ImageCode = Static<typeof ImageCode>;
export const ImageCodeReply = Envelope(ImageCode);

// ----- SMS ------------------------------------------------------------------------------------

export const SendSmsCodeBody = Type.Object({
  siteId: SiteId,
  phone: Phone,
  purpose: Type.Optional(SmsPurpose),
  captchaId: Opaque('GET /app/client/imageCode 的 captchaId', 64),
  imageCode: Opaque('图形验证码', 16),
});
export const SendSmsCodeResult = Type.Object({ resendAfter: Type.Integer({ description: 'seconds' }) });
export const SendSmsCodeReply = Envelope(SendSmsCodeResult);

export const SmsLoginBody = Type.Object({ siteId: SiteId, phone: Phone, code: SmsCode });

/** Logged-in variants: a code to the member's own phone (before a sensitive step). */
export const SendCodeBody = Type.Object({ siteId: SiteId });
export const ValidateCodeBody = Type.Object({ siteId: SiteId, code: SmsCode });
export const ValidateCodeReply = Envelope(Type.Object({ valid: Type.Boolean() }));

// ----- Password, account, registration ---------------------------------------------------

/**
 * An image code solved by a person (GET /app/client/imageCode): optional in the schema, asked
 * for by the server when it answers IDENTITY_MSG.imageCodeRequired.
 */
export const ImageCodeProof = {
  captchaId: Type.Optional(Opaque('GET /app/client/imageCode 的 captchaId', 64)),
  imageCode: Type.Optional(Opaque('图形验证码（失败次数较多时需要）', 16)),
};
export const PwdLoginBody = Type.Object({
  siteId: SiteId,
  phone: Phone,
  password: Encrypted,
  ...ImageCodeProof,
});
export const AccountLoginBody = Type.Object({
  siteId: SiteId,
  username: Username,
  password: Encrypted,
  ...ImageCodeProof,
});
export const RegisterBody = Type.Object({
  siteId: SiteId,
  phone: Phone,
  code: SmsCode,
  password: Encrypted,
  username: Type.Optional(Username),
});
/** A look-up by phone: a person proves themself with an image code (or is the logged-in owner). */
export const IsRegisteredBody = Type.Object({ siteId: SiteId, phone: Phone, ...ImageCodeProof });
export const IsRegisteredReply = Envelope(Type.Object({ registered: Type.Boolean() }));
export const FindPasswordBody = Type.Object({
  siteId: SiteId,
  phone: Phone,
  code: SmsCode,
  newPsw1: Encrypted,
  newPsw2: Encrypted,
});

/** Change password (section 5): all three fields encrypted; form data. */
export const UptPasswordBody = Type.Object({
  oldPsw: Type.Optional(Encrypted),
  newPsw1: Type.Optional(Encrypted),
  newPsw2: Type.Optional(Encrypted),
  siteId: Type.Optional(SiteId),
});

// ----- Session --------------------------------------------------------------------------------

export const CheckTokenBody = Type.Object({
  token: Type.Optional(Opaque('登录令牌（也可放在 token 请求头）', 256)),
  siteId: SiteId,
});
export const CheckTokenReply = Envelope(Type.Object({ valid: Type.Boolean(), user: LoginUser }));
export const LogoutBody = Type.Object({ siteId: Type.Optional(SiteId) });

export const MemberInfo = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  phone: Nullable(Type.String()),
  username: Nullable(Type.String()),
  hasPassword: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type MemberInfo = Static<typeof MemberInfo>;
export const MemberInfoBody = Type.Object({ siteId: Type.Optional(SiteId) });
export const MemberInfoReply = Envelope(MemberInfo);

export const PhoneCheckBody = Type.Object({ siteId: SiteId, phone: Phone });
export const PhoneCheckReply = Envelope(Type.Object({ matches: Type.Boolean() }));

// ----- Messaging app (open id) --------------------------------------------------------------

export const OpenIdProof = {
  openId: Opaque('messaging-app open id', 128),
  openIdSign: Opaque('GET /app/client/getOpenId 签发的凭证，10 分钟有效', 512),
};
export const WxAppIdBody = Type.Object({ siteId: SiteId });
export const WxAppIdReply = Envelope(Type.Object({ appId: Type.String() }));
export const WxConfigBody = Type.Object({ siteId: SiteId, url: Opaque('当前页面地址（不含 #）', 1024) });
export const WxConfigReply = Envelope(
  Type.Object({
    appId: Type.String(),
    timestamp: Type.Integer(),
    nonceStr: Type.String(),
    signature: Type.String({ description: 'sha1 of jsapi_ticket, noncestr, timestamp, url' }),
  }),
);
export const GetOpenIdBody = Type.Object({ siteId: SiteId, code: Opaque('messaging-app auth code', 256) });
export const GetOpenIdReply = Envelope(
  Type.Object({ openId: Type.String(), openIdSign: Type.String(), bound: Type.Boolean() }),
);
export const OpenIdBody = Type.Object({ siteId: SiteId, ...OpenIdProof });
export const CheckBoundUserReply = Envelope(Type.Object({ bound: Type.Boolean() }));
export const PayOpenIdBody = Type.Object({ siteId: SiteId, code: Opaque('messaging-app auth code', 256) });
export const PayOpenIdReply = Envelope(Type.Object({ openId: Type.String() }));

export const BindMobileBody = Type.Object({
  siteId: SiteId,
  phone: Phone,
  code: SmsCode,
  openId: Type.Optional(OpenIdProof.openId),
  openIdSign: Type.Optional(OpenIdProof.openIdSign),
});
export const BindMobileReply = Envelope(Type.Union([LoginResult, Type.Object({ user: LoginUser })]));

// ----- Partner logins -----------------------------------------------------------------------

export const HaersAuthLoginBody = Type.Object({ siteId: SiteId, ticket: Opaque('bank ticket', 1024) });
export const NormAuthLoginBody = Type.Object({
  siteId: SiteId,
  authLoginParams: Opaque('partner-encrypted {phone, cstNo, t, n}'),
});
export const HrAuthLoginBody = Type.Object({
  siteId: SiteId,
  loginParams: Opaque('partner-encrypted {userId, t, n}'),
});
export const DingtalkLoginBody = Type.Object({
  siteId: SiteId,
  corpId: Opaque('DingTalk corpId', 128),
  authCode: Opaque('DingTalk auth code', 256),
});
export const ActivityLoginBody = Type.Object({
  siteId: SiteId,
  activityCode: Type.Optional(Opaque('activity code, default cj001', 64)),
  loginParams: Opaque('partner-encrypted {userId, activityCode, invited, t, n}'),
});
export const MarketingLoginBody = Type.Object({
  siteId: SiteId,
  loginParams: Opaque('partner-encrypted {userId, phone?, t, n}'),
});
export const AutoLoginQuery = Type.Object({
  siteId: SiteId,
  userId: Opaque('partner user id', 128),
  timestamp: EpochMs(),
  nonce: Opaque('random, single use', 64),
  sign: Opaque('hex HMAC-SHA256 of "siteId&userId&timestamp&nonce" with the site partner key', 128),
});
export const GatewayAuthBody = Type.Object({
  siteId: SiteId,
  gateway: Opaque('partner gateway name', 64),
});
export const GatewayAuthReply = Envelope(
  Type.Object({ authCode: Type.String(), expiresIn: Type.Integer({ description: 'seconds' }) }),
);

const tag = 'identity';
const wxTag = 'identity: messaging app';
const partnerTag = 'identity: partner login';
const site = { site: 'required' } as const;
const member = { auth: 'required' } as const;
const siteAndMember = { site: 'required', auth: 'required' } as const;

/** Each partner login: its own payload, the shared answer (data also on failure, spec section 7). */
const partnerLogin = <B extends TSchema>(
  path: string,
  summary: string,
  body: B,
  encoding?: Endpoint['encoding'],
) =>
  endpoint({
    ...site,
    tag: partnerTag,
    method: 'POST',
    path,
    summary,
    body,
    reply: PartnerLoginReply,
    ...(encoding ? { encoding } : {}),
  });

/** Every way in and out of a site (spec sections 4, 5, 7, 9): keys, codes, logins, sessions. */
export const identityApi = {
  // ----- keys and anti-automation --------------------------------------------------------
  publicKey: endpoint({
    tag,
    method: 'GET',
    path: '/app/client/publicKey',
    summary: '密码加密公钥（RSA-OAEP SHA-256；明文为 JSON {v, n, t}）',
    body: NoQuery,
    reply: PublicKeyReply,
  }),
  imageCode: endpoint({
    ...site,
    tag,
    method: 'GET',
    path: '/app/client/imageCode',
    summary: '图形验证码（SVG；发送短信验证码前需要）',
    body: ImageCodeQuery,
    reply: ImageCodeReply,
  }),

  // ----- SMS ---------------------------------------------------------------------------------
  sendSmsCode: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/sendSmsCode',
    summary: '发送短信验证码（6 位，5 分钟有效，60 秒后可重发；需图形验证码）',
    body: SendSmsCodeBody,
    reply: SendSmsCodeReply,
  }),
  smsLogin: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/smsLogin',
    summary: '短信验证码登录（登录方式 2）',
    body: SmsLoginBody,
    reply: LoginReply,
  }),
  sendCode: endpoint({
    ...siteAndMember,
    tag,
    method: 'POST',
    path: '/app/client/sendCode',
    summary: '向当前会员手机发送校验验证码',
    body: SendCodeBody,
    reply: SendSmsCodeReply,
  }),
  validateCode: endpoint({
    ...siteAndMember,
    tag,
    method: 'POST',
    path: '/app/client/validateCode',
    summary: '校验当前会员手机收到的验证码（一次有效）',
    body: ValidateCodeBody,
    reply: ValidateCodeReply,
  }),

  // ----- password, account, registration -------------------------------------------------
  pwdLogin: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/pwdLogin',
    summary: '密码登录（登录方式 1：手机号 + 加密密码；失败较多时需图形验证码，同一地址对同一账号逐次延时）',
    body: PwdLoginBody,
    reply: LoginReply,
  }),
  accountLogin: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/accountLogin',
    summary: '账号登录（登录方式 3：账号 + 加密密码；失败较多时需图形验证码）',
    body: AccountLoginBody,
    reply: LoginReply,
  }),
  register: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/register',
    summary: '注册（仅 configJson.showRegister = Y 的站点；验证码用途 register）',
    body: RegisterBody,
    reply: LoginReply,
  }),
  isRegistered: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/isRegistered',
    summary: '手机号是否已注册（需图形验证码，登录会员查询本人手机号除外；每地址每分钟 10 次）',
    body: IsRegisteredBody,
    reply: IsRegisteredReply,
  }),
  findPassword: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/findPassword',
    summary: '找回密码（短信验证码 findPassword + 两次加密新密码；会员全部会话失效）',
    body: FindPasswordBody,
    reply: EmptyReply,
  }),
  uptPassword: endpoint({
    ...member,
    tag,
    method: 'POST',
    path: '/sys/user/personal/uptPassword',
    summary: '修改密码（表单；oldPsw、newPsw1、newPsw2 均加密；其他会话失效）',
    body: UptPasswordBody,
    reply: EmptyReply,
    encoding: 'form',
  }),

  // ----- session -------------------------------------------------------------------------------
  checkToken: endpoint({
    ...site,
    tag,
    method: 'POST',
    path: '/app/client/checkToken',
    summary: '校验登录令牌：有效 200；缺少或未知 401；过期、已退出、被顶替或属于其他站点 416',
    body: CheckTokenBody,
    reply: CheckTokenReply,
  }),
  logout: endpoint({
    ...member,
    tag,
    method: 'POST',
    path: '/app/client/logout',
    summary: '退出：令牌在服务端立即失效',
    body: LogoutBody,
    reply: EmptyReply,
  }),
  personalInfo: endpoint({
    ...member,
    tag,
    method: 'POST',
    path: '/sys/user/personal/info',
    summary: '个人中心：会员信息',
    body: MemberInfoBody,
    reply: MemberInfoReply,
  }),
  phoneCheck: endpoint({
    ...siteAndMember,
    tag,
    method: 'POST',
    path: '/app/client/phoneCheck',
    summary: '手机号是否为当前会员的手机号',
    body: PhoneCheckBody,
    reply: PhoneCheckReply,
  }),

  // ----- messaging app ------------------------------------------------------------------------
  wxAppId: endpoint({
    ...site,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/wxAppId',
    summary: '站点的公众号 appId',
    body: WxAppIdBody,
    reply: WxAppIdReply,
  }),
  wxConfig: endpoint({
    ...site,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/wxConfig',
    summary: 'JS-SDK 配置签名',
    body: WxConfigBody,
    reply: WxConfigReply,
  }),
  getOpenId: endpoint({
    ...site,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/getOpenId',
    summary: '网页授权 code 换 openId（附 10 分钟有效的 openIdSign）及是否已绑定',
    body: GetOpenIdBody,
    reply: GetOpenIdReply,
  }),
  checkBoundUser: endpoint({
    ...site,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/checkBoundUser',
    summary: 'openId 是否已绑定会员',
    body: OpenIdBody,
    reply: CheckBoundUserReply,
  }),
  tokenByOpenId: endpoint({
    ...site,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/tokenByOpenId',
    summary: 'openId 登录：已绑定会员的令牌',
    body: OpenIdBody,
    reply: LoginReply,
  }),
  payOpenId: endpoint({
    ...siteAndMember,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/payOpenId',
    summary: '支付用 openId（绑定到当前会员）',
    body: PayOpenIdBody,
    reply: PayOpenIdReply,
  }),
  bindMobile: endpoint({
    ...site,
    tag: wxTag,
    method: 'POST',
    path: '/app/client/bindMobile',
    summary: '绑定手机号：已登录则设置手机号；未登录凭 openId + openIdSign 绑定并登录',
    body: BindMobileBody,
    reply: BindMobileReply,
  }),

  // ----- partner logins ------------------------------------------------------------------------
  haersLogin: partnerLogin('/api/haers/authLogin', '银行票据登录（票据一次有效）', HaersAuthLoginBody),
  normLogin: partnerLogin(
    '/api/norm/phoneAndCstNo/authLogin',
    '手机号 + 客户号登录（合作方以站点密钥加密 authLoginParams）',
    NormAuthLoginBody,
  ),
  hrLogin: partnerLogin('/api/hr/authLogin', '加密参数银行登录（loginParams）', HrAuthLoginBody),
  dingtalkLogin: partnerLogin(
    '/app/client/h5mircoApp/dingtalkLogin',
    '钉钉免登（urlencoded；corpId + authCode；仅 dingtalkAuthSwitch = 1 的站点）',
    DingtalkLoginBody,
    'urlencoded',
  ),
  activityLogin: partnerLogin(
    '/api/activity/login',
    '活动登录（非受邀用户：code 500，data.authErrUrl）',
    ActivityLoginBody,
  ),
  marketingLogin: partnerLogin('/api/marketing/login', '营销登录', MarketingLoginBody),
  autoLogin: endpoint({
    ...site,
    tag: partnerTag,
    method: 'GET',
    path: '/app/client/autoLogin',
    summary: '自动登录（GET 签名参数；一次有效，5 分钟内）',
    body: AutoLoginQuery,
    reply: LoginReply,
  }),
  gatewayAuth: endpoint({
    ...siteAndMember,
    tag: partnerTag,
    method: 'POST',
    path: '/api/gateway/auth',
    summary: '网关授权：为合作网关签发 5 分钟一次性授权码',
    body: GatewayAuthBody,
    reply: GatewayAuthReply,
  }),
};
