import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BillListBody,
  BillListReply,
  POINTS_ENTRY_TYPE_LABEL,
  PointsBalanceBody,
  PointsBalanceReply,
  type PointsEntryType,
} from '@sitemall/contract';
import type { Member } from '../../context';
import { chinaDay } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
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
  const tags = ['points'];
  const config = { auth: 'required' as const, site: 'required' as const };

  app.post(
    '/api/points/balance',
    {
      config,
      schema: { tags, summary: '积分余额', body: PointsBalanceBody, response: { 200: PointsBalanceReply } },
    },
    async (req) => ok({ balance: await getBalance(req.ctx.db, memberRef(req.ctx.member!)) }),
  );

  app.post(
    '/api/points/billList',
    {
      config,
      schema: { tags, summary: '账单明细（积分流水）', body: BillListBody, response: { 200: BillListReply } },
    },
    async (req) => {
      const { type, startDate, endDate, pageNum = 1 } = req.body;
      const page = await listBills(req.ctx.db, {
        ...memberRef(req.ctx.member!),
        type,
        // The mall's days are China's: a date filter covers that whole day there.
        from: startDate ? chinaDay(startDate).start : undefined,
        to: endDate ? chinaDay(endDate).end : undefined,
        pageNum,
      });
      return ok({ ...page, list: page.list.map(presentBill) });
    },
  );
};
