import { type Static, Type } from '@sinclair/typebox';
import { endpoint, PUBLIC_READ } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id } from './numbers.ts';

/** A site id as a client sends it: a positive integer (form fields arrive as strings). */
export const SiteId = Id({ description: '站点 id' });

/** A switch as the spec writes it. */
export const YesNo = Type.Union([Type.Literal('Y'), Type.Literal('N')]);

/**
 * The site's JSON configuration. The first three fields are the spec's (section 3); the rest
 * are the named switches that carry what the spec ties to sites 719 and 10110.
 */
export const SiteConfigJson = Type.Object({
  returnBar: Type.Integer({ description: '2: after login always return home' }),
  hideServicePhone: YesNo,
  hideExit: YesNo,
  showRegister: Type.Optional(YesNo),
  guestCart: Type.Optional(YesNo),
  afterSalesMenu: Type.Optional(YesNo),
  serviceInfo: Type.Optional(YesNo),
  serviceHours: Type.Optional(Type.String()),
  customServiceEntry: Type.Optional(YesNo),
  bankBranded: Type.Optional(YesNo),
  bankName: Type.Optional(Type.String()),
  /** Beyond the spec: pay part with points and the rest by WeChat (wx_pc). */
  mixedPay: Type.Optional(YesNo),
  /** Beyond the spec: days after shipping before receipt confirms itself (after-sales windows start then). */
  autoConfirmDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
  /** Beyond the spec: an SMS-code site (loginWay 2) whose members may also log in with a password. */
  passwordLogin: Type.Optional(YesNo),
});
export type SiteConfigJson = Static<typeof SiteConfigJson>;

export const SupplyConfigItem = Type.Object({
  source: Type.Integer(),
  type: Type.Integer(),
  excludeSupply: Type.Boolean(),
  name: Type.String(),
});

export const MenuAd = Type.Object({
  id: Type.Integer(),
  type: Type.Integer({ description: '1: special list; 2: external URL' }),
  title: Type.String(),
  url: Type.String(),
  adName: Type.String(),
});
export type MenuAd = Static<typeof MenuAd>;

export const HeadTemplate = Type.Object({ photo: Type.String(), note: Type.String() });
export type HeadTemplate = Static<typeof HeadTemplate>;
export const FootTemplate = Type.Object({
  list: Type.Array(Type.Object({ src: Type.String(), name: Type.String() })),
  photo: Type.String(),
  note: Type.String(),
});
export type FootTemplate = Static<typeof FootTemplate>;

export const TEMPLATE = {
  head: 'home-head-template',
  menu: 'home-menu-template',
  foot: 'home-foot-template',
} as const;

export const HomePageMode = Type.Object({
  templateName: Type.String(),
  value: Type.Unknown({ description: 'the template JSON' }),
});
export type HomePageMode = Static<typeof HomePageMode>;

export const AdvancedConfig = Type.Object({
  logo: Type.String(),
  primaryColor: Type.String(),
  slogan: Type.String(),
});
export type AdvancedConfig = Static<typeof AdvancedConfig>;

export const SiteDistrict = Type.Object({ code: Type.String(), name: Type.String() });

export const MallSite = Type.Object({
  id: Type.Integer(),
  siteName: Type.String(),
  hotline: Type.String({ description: 'plain digits or a landline as is; otherwise encrypted' }),
  spareHotline: Type.String(),
  loginWay: Type.Integer(),
  paywayConf: Type.Array(Type.String()),
  cashUnit: Type.String(),
  configJson: SiteConfigJson,
  customServicePcSwitch: Type.Integer(),
  isUsable: Type.Integer(),
  loginOrder: Type.String(),
  dingtalkAuthSwitch: Type.Integer(),
  supplyConfig: Type.Array(SupplyConfigItem),
  homePageModes: Type.Array(HomePageMode),
});
export type MallSite = Static<typeof MallSite>;

export const GetSiteConfigBody = Type.Object({ siteId: SiteId });
export const SiteConfig = Type.Object({
  mallSite: MallSite,
  advancedConfig: AdvancedConfig,
  mallSiteDistrict: Type.Array(SiteDistrict),
  code: Type.Integer(),
});
export type SiteConfig = Static<typeof SiteConfig>;
export const GetSiteConfigReply = Envelope(SiteConfig);

export const PcInfoBody = Type.Object({ id: SiteId });
export const PcInfo = Type.Object({
  code: Type.Integer(),
  mallSite: Type.Object({ homePageModes: Type.Array(HomePageMode) }),
});
export type PcInfo = Static<typeof PcInfo>;
export const PcInfoReply = Envelope(PcInfo);

/** Keys the storefront needs before it can read protected fields (hotline). */
export const ClientKeys = Type.Object({
  hotlineKey: Type.String({ description: 'base64 AES-256-GCM key for encrypted hotlines' }),
});
export type ClientKeys = Static<typeof ClientKeys>;
export const ClientKeysReply = Envelope(ClientKeys);

/** A GET without a query. */
export const NoQuery = Type.Object({});

/** The site's endpoints (spec sections 3, 4, 8): configuration, home templates, client keys. */
export const siteApi = {
  getSiteConfig: endpoint({
    ...PUBLIC_READ,
    method: 'POST',
    path: '/mall/mallsite/getSiteConfig',
    tag: 'site',
    summary: '站点配置',
    body: GetSiteConfigBody,
    reply: GetSiteConfigReply,
  }),
  pcInfo: endpoint({
    ...PUBLIC_READ,
    method: 'POST',
    path: '/mall/mallsite/pcInfo',
    tag: 'site',
    summary: 'PC 首页模板',
    body: PcInfoBody,
    reply: PcInfoReply,
  }),
  clientKeys: endpoint({
    method: 'GET',
    path: '/app/client/clientKeys',
    tag: 'site',
    summary: '前端解密热线所需密钥',
    body: NoQuery,
    reply: ClientKeysReply,
  }),
};
