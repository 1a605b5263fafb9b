import type { ClientTips, MyServiceMessages, ServiceChannels } from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, lte } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { siteOf } from '../catalog/catalog.service';
import { publicHotline } from '../site/site.service';
import { mallNotice, serviceChannel, serviceMessage } from './service.tables';

/** Mall customer service: the site's channels. Hotlines travel as getSiteConfig sends them. */
export async function serviceChannels(ctx: RequestContext, hotlineKey: Buffer): Promise<ServiceChannels> {
  const rows = await ctx.db
    .select()
    .from(serviceChannel)
    .where(eq(serviceChannel.siteId, siteOf(ctx).row.id))
    .orderBy(asc(serviceChannel.sort), asc(serviceChannel.id));
  return {
    list: rows.map(({ type, name, value, hours }) => ({
      type,
      name,
      value: type === 'hotline' || type === 'spareHotline' ? publicHotline(hotlineKey, value) : value,
      hours,
    })),
  };
}

export async function leaveServiceMessage(
  ctx: RequestContext,
  input: { name: string; phone: string; topic: string; content: string },
): Promise<{ messageId: number }> {
  const [row] = await ctx.db
    .insert(serviceMessage)
    .values({
      siteId: siteOf(ctx).row.id,
      memberId: ctx.member?.id ?? null,
      name: input.name.trim(),
      phone: input.phone,
      topic: input.topic,
      content: input.content.trim(),
    })
    .returning({ id: serviceMessage.id });
  return { messageId: row!.id };
}

/** The logged-in member's messages on this site, newest first, with customer service's reply. */
export async function myServiceMessages(ctx: RequestContext, pageNum = 1): Promise<MyServiceMessages> {
  if (!ctx.member) throw failure('请先登录');
  const where = and(
    eq(serviceMessage.siteId, siteOf(ctx).row.id),
    eq(serviceMessage.memberId, ctx.member.id),
  );
  return listPage({
    pageNum,
    rows: ctx.db.select().from(serviceMessage).where(where).orderBy(desc(serviceMessage.id)),
    total: ctx.db.select({ n: count() }).from(serviceMessage).where(where),
    present: (rows) =>
      rows.map((m) => ({
        messageId: m.id,
        topic: m.topic,
        content: m.content,
        createdAt: m.createdAt.toISOString(),
        reply: m.reply,
        repliedAt: m.repliedAt?.toISOString() ?? null,
      })),
  });
}

/** Client tips (spec section 7, queryClientTips): the site's PC notice in force now, if any. */
export async function clientTips(ctx: RequestContext, now = new Date()): Promise<ClientTips> {
  const [row] = await ctx.db
    .select()
    .from(mallNotice)
    .where(
      and(
        eq(mallNotice.siteId, siteOf(ctx).row.id),
        eq(mallNotice.isEnabled, true),
        lte(mallNotice.startAt, now),
        gt(mallNotice.endAt, now),
      ),
    )
    .orderBy(desc(mallNotice.startAt), desc(mallNotice.id))
    .limit(1);
  return {
    notice: row
      ? {
          id: row.id,
          title: row.title,
          content: row.content,
          startTime: row.startAt.toISOString(),
          endTime: row.endAt.toISOString(),
        }
      : null,
  };
}
