import type { AdvancedConfig, FootTemplate, HeadTemplate, SiteConfigJson } from '@sitemall/contract';

export interface DemoAdvert {
  type: 1 | 2;
  title: string;
  adName: string;
  url?: string;
}

export interface DemoSite {
  id: number;
  siteName: string;
  hotline: string;
  spareHotline: string;
  loginWay: 1 | 2 | 3;
  paywayConf: string[];
  cashUnit: string;
  configJson: SiteConfigJson;
  customServicePcSwitch: number;
  loginOrder: string;
  dingtalkAuthSwitch: number;
  supplyConfig: { source: number; type: number; excludeSupply: boolean; name: string }[];
  advancedConfig: AdvancedConfig;
  districts: { code: string; name: string }[];
  head: HeadTemplate;
  foot: FootTemplate;
  menuAdverts: DemoAdvert[];
}

const features = (siteId: number): FootTemplate['list'] => [
  { src: `/media/demo/feature-genuine-${siteId}.svg`, name: '正品保障' },
  { src: `/media/demo/feature-delivery-${siteId}.svg`, name: '极速配送' },
  { src: `/media/demo/feature-return-${siteId}.svg`, name: '7天无理由退货' },
  { src: `/media/demo/feature-service-${siteId}.svg`, name: '贴心客服' },
];

/**
 * The three demo sites. 719 is a bank's points mall and 10110 an employer's welfare mall: they
 * carry every behaviour the spec ties to those ids as named switches. 1000 shows the defaults.
 */
export const DEMO_SITES: DemoSite[] = [
  {
    id: 719,
    siteName: '汇通银行信用卡积分商城',
    hotline: '400-819-0719',
    spareHotline: '95519',
    loginWay: 2,
    // pack: gift cards of the site pay first, points the rest (issue 13).
    paywayConf: ['ye', 'wx_pc', 'pack'],
    cashUnit: '积分',
    configJson: {
      returnBar: 1,
      hideServicePhone: 'N',
      hideExit: 'N',
      showRegister: 'Y',
      passwordLogin: 'Y',
      guestCart: 'Y',
      afterSalesMenu: 'Y',
      serviceInfo: 'Y',
      serviceHours: '8:00-18:00',
      customServiceEntry: 'N',
      bankBranded: 'Y',
      bankName: '汇通银行',
      mixedPay: 'Y',
    },
    customServicePcSwitch: 1,
    loginOrder: '0',
    dingtalkAuthSwitch: 0,
    supplyConfig: [
      { source: 1, type: 1, excludeSupply: false, name: '汇通直供' },
      { source: 2, type: 1, excludeSupply: false, name: '汇通自营' },
      { source: 10, type: 1, excludeSupply: false, name: '积分精选' },
      { source: 23, type: 1, excludeSupply: false, name: '微信立减金' },
    ],
    advancedConfig: {
      logo: '/media/demo/logo-719.svg',
      primaryColor: '#c8102e',
      slogan: '积分当钱花，好礼兑不停',
    },
    districts: [
      { code: '110000', name: '北京市' },
      { code: '310000', name: '上海市' },
      { code: '440000', name: '广东省' },
      { code: '330000', name: '浙江省' },
    ],
    head: { photo: '/media/demo/banner-719.svg', note: '搜索积分好礼，如 蓝牙耳机' },
    foot: {
      list: features(719),
      photo: '/media/demo/qr-719.svg',
      note: '<p>扫码关注<strong>汇通银行信用卡</strong>公众号，积分动态早知道</p><p>© 2026 汇通银行 版权所有 · 积分兑换商品由合作商户提供</p>',
    },
    menuAdverts: [
      { type: 1, title: '年货节', adName: '年货节专场' },
      { type: 1, title: '数码焕新', adName: '数码焕新季' },
      { type: 1, title: '积分秒兑', adName: '积分秒兑专区' },
      {
        type: 2,
        title: '信用卡申请',
        adName: '汇通信用卡申请',
        url: 'https://www.example.com/huitong/credit-card',
      },
    ],
  },
  {
    id: 10110,
    siteName: '云企员工福利商城',
    hotline: '010-62345678',
    spareHotline: '',
    loginWay: 3,
    paywayConf: ['ye'],
    cashUnit: '福利币',
    configJson: {
      returnBar: 2,
      hideServicePhone: 'N',
      hideExit: 'Y',
      showRegister: 'N',
      guestCart: 'N',
      afterSalesMenu: 'N',
      serviceInfo: 'N',
      customServiceEntry: 'Y',
      bankBranded: 'N',
    },
    customServicePcSwitch: 0,
    loginOrder: '1',
    dingtalkAuthSwitch: 1,
    supplyConfig: [
      { source: 1, type: 1, excludeSupply: false, name: '福利直供' },
      { source: 2, type: 1, excludeSupply: false, name: '云企自营' },
      { source: 19, type: 1, excludeSupply: false, name: '节日礼品' },
    ],
    advancedConfig: {
      logo: '/media/demo/logo-10110.svg',
      primaryColor: '#1f6feb',
      slogan: '用心关怀每一位伙伴',
    },
    districts: [
      { code: '110000', name: '北京市' },
      { code: '120000', name: '天津市' },
    ],
    head: { photo: '/media/demo/banner-10110.svg', note: '搜索福利商品，如 中秋礼盒' },
    foot: {
      list: features(10110),
      photo: '/media/demo/qr-10110.svg',
      note: '<p>云企员工福利平台 · 为企业伙伴提供节日关怀与日常福利</p><p>© 2026 云企科技 版权所有</p>',
    },
    menuAdverts: [
      { type: 1, title: '中秋福利', adName: '中秋福利专场' },
      { type: 1, title: '健康生活', adName: '健康生活馆' },
      {
        type: 2,
        title: '福利政策',
        adName: '年度福利政策',
        url: 'https://www.example.com/yunqi/welfare-policy',
      },
    ],
  },
  {
    id: 1000,
    siteName: '乐享积分商城',
    hotline: '4008001000',
    spareHotline: '021-61231000',
    loginWay: 1,
    paywayConf: ['ye', 'wx_pc'],
    cashUnit: '积分',
    configJson: { returnBar: 1, hideServicePhone: 'Y', hideExit: 'N' },
    customServicePcSwitch: 0,
    loginOrder: '1',
    dingtalkAuthSwitch: 0,
    supplyConfig: [],
    advancedConfig: {
      logo: '/media/demo/logo-1000.svg',
      primaryColor: '#fa541c',
      slogan: '积分乐享，好物到家',
    },
    districts: [],
    head: { photo: '/media/demo/banner-1000.svg', note: '搜索商品' },
    foot: {
      list: features(1000),
      photo: '/media/demo/qr-1000.svg',
      note: '<p>乐享积分商城 · 会员积分兑换平台</p><p>© 2026 乐享会员服务 版权所有</p>',
    },
    menuAdverts: [
      { type: 1, title: '新品上架', adName: '新品上架' },
      { type: 2, title: '会员权益', adName: '会员权益说明', url: 'https://www.example.com/lexiang/benefits' },
    ],
  },
];
