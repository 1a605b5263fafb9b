import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { ADVERT_POSITIONS } from './catalog.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id } from './numbers.ts';
import { FootTemplate, HeadTemplate } from './site.ts';

/**
 * A site's home templates and adverts in the console (issue 12, "Sites"): the head template
 * (banner picture, search placeholder), the foot template (feature list, QR picture, note
 * HTML) and the adverts of each position; the menu template is the site's enabled menu
 * adverts in order. Permission: the `sites` area.
 */
const { Text, SiteIdIn, Reason, tagOf } = adminSchema;
const tag = tagOf('sites');

export const TEMPLATES_MSG = {
  badPicture: '图片地址须为站内路径（以 / 开头）或 https:// 链接',
  badLink: '外链广告须填写以 http:// 或 https:// 开头的链接',
  blank: '请填写广告标题和广告名称',
  blankFeature: '请填写页脚服务项名称',
  orderChanged: '广告列表已变化，请刷新后再排序',
} as const;

/** A picture the storefront may show: none, a path of this server, or an https address. */
export const PICTURE_URL = /^(?:\/(?!\/)[^\s"'<>\\]*|https:\/\/[^\s"'<>\\]+)$/;
/** An external advert link, as the storefront opens it (spec section 2: type 2). */
export const ADVERT_LINK = /^https?:\/\/[^\s"'<>\\]+$/i;
export const isPictureUrl = (url: string) => url === '' || PICTURE_URL.test(url);

export const ADVERT_POSITION_LABEL: Record<(typeof ADVERT_POSITIONS)[number], string> = {
  menu: '导航菜单',
  banner: '首页轮播',
  activity: '活动专区',
  floor: '楼层',
};
export const ADVERT_TYPE_LABEL: Record<number, string> = { 1: '商品专题', 2: '外部链接' };

const Picture = Text(500, { description: '图片地址：以 / 开头的站内路径或 https:// 链接，可为空' });
const Position = Type.Union(ADVERT_POSITIONS.map((p) => Type.Literal(p)));

export const HeadTemplateInput = Type.Object({
  photo: Picture,
  note: Text(40, { description: '搜索框提示文字' }),
});
export const FootTemplateInput = Type.Object({
  list: Type.Array(Type.Object({ src: Picture, name: Text(20) }), { maxItems: 8 }),
  photo: Picture,
  note: Text(2000, { description: '页脚说明（HTML，商城前台净化后显示）' }),
});

export const AdminAdvert = Type.Object({
  id: Type.Integer(),
  position: Type.String(),
  type: Type.Integer({ description: '1: special list; 2: external URL' }),
  title: Type.String(),
  adName: Type.String(),
  url: Type.String(),
  image: Type.String(),
  sort: Type.Integer(),
  isEnabled: Type.Boolean(),
});
export type AdminAdvert = Static<typeof AdminAdvert>;

/** What the preview shows beside the templates: the site's fields the header and footer read. */
export const TemplatePreviewSite = Type.Object({
  siteName: Type.String(),
  hotline: Type.String(),
  hideServicePhone: Type.Boolean(),
  serviceInfo: Type.Boolean(),
  serviceHours: Type.String(),
  logo: Type.String(),
  slogan: Type.String(),
  primaryColor: Type.String(),
});
export type TemplatePreviewSite = Static<typeof TemplatePreviewSite>;

export const SiteTemplates = Type.Object({
  siteId: Type.Integer(),
  head: HeadTemplate,
  foot: FootTemplate,
  /** Every advert of the site, enabled or not, by position and order. */
  adverts: Type.Array(AdminAdvert),
  site: TemplatePreviewSite,
});
export type SiteTemplates = Static<typeof SiteTemplates>;

export const SaveTemplatesBody = Type.Object({
  siteId: SiteIdIn,
  head: Type.Optional(HeadTemplateInput),
  foot: Type.Optional(FootTemplateInput),
  reason: Type.Optional(Reason),
});
export type SaveTemplatesBody = Static<typeof SaveTemplatesBody>;

export const SaveAdvertBody = Type.Object({
  siteId: SiteIdIn,
  /** Absent: a new advert, last of its position. */
  id: Type.Optional(Id()),
  position: Position,
  type: Type.Union([Type.Literal(1), Type.Literal(2)]),
  title: Text(20, { minLength: 1, description: '显示在导航上的文字' }),
  adName: Text(40, { minLength: 1, description: '广告名称（悬停提示、专题页标题）' }),
  url: Text(500, { description: '外部链接（类型 2 必填）' }),
  image: Picture,
  isEnabled: Type.Boolean(),
});
export type SaveAdvertBody = Static<typeof SaveAdvertBody>;

export const OrderAdvertsBody = Type.Object({
  siteId: SiteIdIn,
  position: Position,
  /** Every advert of the position, in the new order. */
  ids: Type.Array(Id(), { minItems: 1, maxItems: 200 }),
});
export type OrderAdvertsBody = Static<typeof OrderAdvertsBody>;

export const DeleteAdvertBody = Type.Object({ siteId: SiteIdIn, id: Id(), reason: Type.Optional(Reason) });
export type DeleteAdvertBody = Static<typeof DeleteAdvertBody>;

export const adminTemplatesApi = {
  templates: endpoint({
    ...tag,
    operator: 'sites:view',
    method: 'GET',
    path: '/sites/templates',
    summary: '站点首页模板（页头、页脚）与广告',
    body: Type.Object({ siteId: SiteIdIn }),
    reply: Envelope(SiteTemplates),
  }),
  saveTemplates: endpoint({
    ...tag,
    operator: 'sites:manage',
    method: 'POST',
    path: '/sites/templates/save',
    summary: '保存页头、页脚模板（审计前后值，各服务进程的商城前台随即更新）',
    encoding: 'json',
    body: SaveTemplatesBody,
    reply: Envelope(SiteTemplates),
  }),
  saveAdvert: endpoint({
    ...tag,
    operator: 'sites:manage',
    method: 'POST',
    path: '/sites/adverts/save',
    summary: '新增或编辑广告（含上下线）',
    encoding: 'json',
    body: SaveAdvertBody,
    reply: Envelope(SiteTemplates),
  }),
  orderAdverts: endpoint({
    ...tag,
    operator: 'sites:manage',
    method: 'POST',
    path: '/sites/adverts/order',
    summary: '调整一个位置的广告顺序',
    encoding: 'json',
    body: OrderAdvertsBody,
    reply: Envelope(SiteTemplates),
  }),
  deleteAdvert: endpoint({
    ...tag,
    operator: 'sites:manage',
    method: 'POST',
    path: '/sites/adverts/delete',
    summary: '删除广告（审计删除前的内容；商城前台随即不再显示）',
    encoding: 'json',
    body: DeleteAdvertBody,
    reply: Envelope(SiteTemplates),
  }),
};
