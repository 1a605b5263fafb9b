import {
  ADMIN_MSG,
  type AdminServiceMessage,
  adminServiceApi as api,
  SERVICE_CONSOLE_MSG,
  type ServiceReplyBody,
} from '@sitemall/contract';
import { and, count, desc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { badRequest, failure } from '../../lib/errors';
import { containsText } from '../../lib/like';
import { emptyPage, listPage } from '../../lib/paging';
import { serve } from '../../lib/serve';
import { type OperatorCtx, operatorOf, requireSiteAccess, sitesToRead } from '../admin/admin.service';
import { audited } from '../admin/audit';
import { inSites, isoOrNull, noSites } from '../admin/console-kit';
import { serviceMessage } from './service.tables';

/**
 * Customer-service messages in the console: the messages of the operator's sites (replied or
 * waiting), and the reply, written once by a guarded update and audited in its transaction.
 */

const view = (m: typeof serviceMessage.$inferSelect): AdminServiceMessage => ({
  messageId: m.id,
  siteId: m.siteId,
  memberId: m.memberId,
  name: m.name,
  phone: m.phone,
  topic: m.topic,
  content: m.content,
  createdAt: m.createdAt.toISOString(),
  reply: m.reply,
  repliedAt: isoOrNull(m.repliedAt),
  repliedBy: m.repliedBy,
});

async function findMessages(
  ctx: OperatorCtx,
  query: { siteId?: number; replied?: boolean; keyword?: string; pageNum?: number },
) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'aftersales:view', query.siteId);
  if (noSites(scope)) return emptyPage<AdminServiceMessage>(pageNum);
  const m = serviceMessage;
  const keyword = query.keyword?.trim();
  const where = and(
    inSites(m.siteId, scope),
    query.replied === undefined ? undefined : query.replied ? isNotNull(m.repliedAt) : isNull(m.repliedAt),
    keyword
      ? or(containsText(m.name, keyword), containsText(m.phone, keyword), containsText(m.content, keyword))
      : undefined,
  );
  return listPage({
    pageNum,
    rows: ctx.db.select().from(m).where(where).orderBy(desc(m.id)),
    total: ctx.db.select({ n: count() }).from(m).where(where),
    present: (rows) => rows.map(view),
  });
}

async function reply(ctx: OperatorCtx, body: ServiceReplyBody) {
  requireSiteAccess(ctx, 'aftersales:manage', body.siteId);
  const text = body.reply.trim();
  if (!text) throw badRequest(SERVICE_CONSOLE_MSG.replyRequired);
  const m = serviceMessage;
  const mine = and(eq(m.id, body.messageId), eq(m.siteId, body.siteId));
  const replied = await audited(ctx, async (tx, record) => {
    const [row] = await tx
      .update(m)
      .set({ reply: text, repliedAt: new Date(), repliedBy: ctx.operator.name })
      .where(and(mine, isNull(m.repliedAt)))
      .returning();
    if (!row) {
      const [exists] = await tx.select({ id: m.id }).from(m).where(mine);
      throw failure(exists ? SERVICE_CONSOLE_MSG.replied : ADMIN_MSG.notFound);
    }
    await record({
      siteId: body.siteId,
      action: 'service.reply',
      entity: 'service_message',
      entityId: row.id,
      before: { reply: '' },
      after: { reply: row.reply },
    });
    return row;
  });
  return view(replied);
}

export const serviceConsole: FastifyPluginAsync = async (app) => {
  serve(app, api.messages, async (req) => ok(await findMessages(operatorOf(req), req.query)));
  serve(app, api.reply, async (req) => ok(await reply(operatorOf(req), req.body), '已回复'));
};
