import { ADMIN_MSG } from '@sitemall/contract';
import { failure } from '../../lib/errors';
import { searchMembers } from '../identity/member-admin';
import { memberById } from '../identity/members';
import { getBalance, listBills } from '../points/points.service';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from './admin.service';

export async function findMembers(
  ctx: OperatorCtx,
  query: { siteId?: number; keyword?: string; pageNum?: number },
) {
  const page = await searchMembers(ctx.db, sitesToRead(ctx, 'members:view', query.siteId), query);
  const list = await Promise.all(
    page.list.map(async (m) => ({
      id: m.id,
      siteId: m.siteId,
      phone: m.phone ?? '',
      username: m.username ?? '',
      status: m.status,
      balance: await getBalance(ctx.db, { siteId: m.siteId, memberId: m.id }),
      createdAt: m.createdAt.toISOString(),
    })),
  );
  return { ...page, list };
}

export async function memberLedger(
  ctx: OperatorCtx,
  query: { siteId: number; memberId: number; pageNum?: number },
) {
  requireSiteAccess(ctx, 'points:view', query.siteId);
  const found = await memberById(ctx.db, query.siteId, query.memberId);
  if (!found) throw failure(ADMIN_MSG.notFound);
  const page = await listBills(ctx.db, {
    siteId: query.siteId,
    memberId: found.id,
    pageNum: query.pageNum ?? 1,
  });
  return {
    ...page,
    list: page.list.map((e) => ({
      id: Number(e.id),
      amount: Number(e.amount),
      balanceAfter: Number(e.balanceAfter),
      type: e.type,
      orderNo: e.orderNo ?? '',
      note: e.note,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
