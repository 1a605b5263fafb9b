import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id } from './numbers.ts';
import { PageNum } from './paging.ts';

/**
 * Customer-service messages in the console (issue 12, item 5): what shoppers left through the
 * mall customer service form, per site, replied or not, and the reply, which a logged-in
 * member then reads on /platformCustomerService (`catalogApi.myServiceMessages`).
 * Permission: the `aftersales` area, the console's customer-service desk.
 */
const { Text, SiteIdIn, Paged, tagOf } = adminSchema;
const tag = tagOf('service');

export const SERVICE_CONSOLE_MSG = {
  replied: '该留言已回复',
  replyRequired: '请填写回复内容',
} as const;

export const AdminServiceMessage = Type.Object({
  messageId: Type.Integer(),
  siteId: Type.Integer(),
  memberId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  phone: Type.String(),
  topic: Type.String(),
  content: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  reply: Type.String(),
  repliedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  repliedBy: Type.String(),
});
export type AdminServiceMessage = Static<typeof AdminServiceMessage>;

export const ServiceMessagesQuery = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  /** true replied, false waiting; both when absent. */
  replied: Type.Optional(Type.Boolean()),
  /** Name, phone or words of the message. */
  keyword: Type.Optional(Text(40)),
  pageNum: Type.Optional(PageNum),
});
export const ServiceReplyBody = Type.Object({
  siteId: SiteIdIn,
  messageId: Id(),
  reply: Text(500, { minLength: 1, description: '回复内容（纯文本，会员在商城客服页看到）' }),
});
export type ServiceReplyBody = Static<typeof ServiceReplyBody>;

export const adminServiceApi = {
  messages: endpoint({
    ...tag,
    operator: 'aftersales:view',
    method: 'GET',
    path: '/service/messages',
    summary: '客服留言（按站点、是否已回复、关键字，分页）',
    body: ServiceMessagesQuery,
    reply: Paged(AdminServiceMessage),
  }),
  reply: endpoint({
    ...tag,
    operator: 'aftersales:manage',
    method: 'POST',
    path: '/service/messages/reply',
    summary: '回复客服留言（每条回复一次，会员在商城客服页看到）',
    encoding: 'json',
    body: ServiceReplyBody,
    reply: Envelope(AdminServiceMessage),
  }),
};
