import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { POINTS_ENTRY_TYPE_LABEL, type PointsEntryType, pointsApi } from '@sitemall/contract';
import type { Member } from '../../context';
import { chinaDay } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { getBalance, listBills, type PointsEntry } from './points.service';

const memberRef = (member: Member) => ({ siteId: member.siteId, memberId: member.id });

const presentBill = (entry: PointsEntry) => ({
  id: entry.id,
  amount: entry.amount,
  balanceAfter: entry.balanceAfter,
  type: entry.type,
  typeName: POINTS_ENTRY_TYPE_LABEL[entry.type as PointsEntryType] ?? entry.type,
  orderNo: entry.orderNo,
  note: entry.note,
  createTime: entry.createdAt.toISOString(),
});

export const pointsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  serve(app, pointsApi.balance, async (req) =>
    ok({ balance: await getBalance(req.ctx, memberRef(req.ctx.member!)) }),
  );

  serve(app, pointsApi.billList, async (req) => {
    const { type, startDate, endDate, pageNum = 1 } = req.body;
    const page = await listBills(req.ctx, {
      ...memberRef(req.ctx.member!),
      type,
      // The mall's days are China's: a date filter covers that whole day there.
      from: startDate ? chinaDay(startDate).start : undefined,
      to: endDate ? chinaDay(endDate).end : undefined,
      pageNum,
    });
    return ok({ ...page, list: page.list.map(presentBill) });
  });
};
