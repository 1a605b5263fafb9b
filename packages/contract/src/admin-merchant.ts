import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { MERCHANT_STATUS } from './catalog.ts';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { Id } from './numbers.ts';
import { PageNum } from './paging.ts';

/**
 * Merchant applications in the console (issue 12, item 5): the site's applications by status
 * and search, one with its licence picture, and the decision (approve or reject, a reason
 * required for both), which the shopper's status query (`merchantStatus`) then answers.
 * Permission: the `sites` area, since who sells in a site's mall is the site's business.
 */
const { Text, SiteIdIn, Reason, Paged, tagOf } = adminSchema;
const tag = tagOf('merchants');

export type MerchantStatusCode = (typeof MERCHANT_STATUS)[keyof typeof MERCHANT_STATUS];
/** The status machine of an application: only a pending one is decided, once. */
export const MERCHANT_TRANSITIONS: Record<MerchantStatusCode, readonly MerchantStatusCode[]> = {
  [MERCHANT_STATUS.pending]: [MERCHANT_STATUS.approved, MERCHANT_STATUS.rejected],
  [MERCHANT_STATUS.approved]: [],
  [MERCHANT_STATUS.rejected]: [],
};

export const MERCHANT_CONSOLE_MSG = {
  state: '申请状态已变化，请刷新后再试',
  noLicence: '营业执照图片不存在',
} as const;

const StatusIn = Type.Union([
  Type.Literal(MERCHANT_STATUS.pending),
  Type.Literal(MERCHANT_STATUS.approved),
  Type.Literal(MERCHANT_STATUS.rejected),
]);

export const AdminMerchantApplication = Type.Object({
  applyId: Type.Integer(),
  siteId: Type.Integer(),
  memberId: Type.Union([Type.Integer(), Type.Null()]),
  phone: Type.String(),
  contactName: Type.String(),
  companyName: Type.String(),
  shopName: Type.String(),
  creditCode: Type.String(),
  mainCategory: Type.String(),
  intro: Type.String(),
  status: Type.Integer({ description: '0 审核中 · 1 审核通过 · 2 审核未通过' }),
  statusText: Type.String(),
  rejectReason: Type.String(),
  /** Whether a licence picture is stored (GET licence answers it). */
  hasLicence: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type AdminMerchantApplication = Static<typeof AdminMerchantApplication>;

export const MerchantApplicationsQuery = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(StatusIn),
  /** Shop, company, contact, phone or credit code (part of it). */
  keyword: Type.Optional(Text(40)),
  pageNum: Type.Optional(PageNum),
});
const OneApplication = Type.Object({ siteId: SiteIdIn, applyId: Id() });
export const MerchantDecisionBody = Type.Object({
  siteId: SiteIdIn,
  applyId: Id(),
  /** 1 approve, 2 reject. */
  status: Type.Union([Type.Literal(MERCHANT_STATUS.approved), Type.Literal(MERCHANT_STATUS.rejected)]),
  reason: Reason,
});
export type MerchantDecisionBody = Static<typeof MerchantDecisionBody>;

export const adminMerchantApi = {
  applications: endpoint({
    ...tag,
    operator: 'sites:view',
    method: 'GET',
    path: '/merchant/applications',
    summary: '商家入驻申请（按状态、关键字，分页）',
    body: MerchantApplicationsQuery,
    reply: Paged(AdminMerchantApplication),
  }),
  application: endpoint({
    ...tag,
    operator: 'sites:view',
    method: 'GET',
    path: '/merchant/application',
    summary: '入驻申请详情',
    body: OneApplication,
    reply: Envelope(AdminMerchantApplication),
  }),
  licence: endpoint({
    ...tag,
    operator: 'sites:view',
    method: 'GET',
    path: '/merchant/application/licence',
    summary: '入驻申请的营业执照图片',
    body: OneApplication,
    reply: ErrorEnvelope,
    file: 'image/*',
  }),
  decide: endpoint({
    ...tag,
    operator: 'sites:manage',
    method: 'POST',
    path: '/merchant/application/decide',
    summary: '审核入驻申请：通过或不通过（须填原因，不通过的原因会告知申请人）',
    encoding: 'json',
    body: MerchantDecisionBody,
    reply: Envelope(AdminMerchantApplication),
  }),
};
