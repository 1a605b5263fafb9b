import type { ClientTips, ServiceChannels } from '@sitemall/contract';
import { and, asc, desc, eq, gt, lte } from 'drizzle-orm';
import type { RequestContext } from '../../context';
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
