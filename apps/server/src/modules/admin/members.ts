import { ADMIN_MSG, type AdminMemberDetail } from '@sitemall/contract';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { searchMembers, sessionsOf, setStatus } from '../identity/member-admin';
import { memberById } from '../identity/members';
import type { SessionStore } from '../identity/sessions';
import { getBalance, listBills } from '../points/points.service';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from './admin.service';
import { audited, requireReason } from './audit';

type MemberRow = NonNullable<Awaited<ReturnType<typeof memberById>>>;

const shown = async (db: Db, m: MemberRow) => ({
  id: m.id,
  siteId: m.siteId,
  phone: m.phone ?? '',
  username: m.username ?? '',
  status: m.status,
  balance: await getBalance({ db }, { siteId: m.siteId, memberId: m.id }),
  createdAt: m.createdAt.toISOString(),
});

export async function findMembers(
  ctx: OperatorCtx,
  query: { siteId?: number; keyword?: string; pageNum?: number },
) {
  const page = await searchMembers(ctx.db, sitesToRead(ctx, 'members:view', query.siteId), query);
  const list = await Promise.all(page.list.map((m) => shown(ctx.db, m)));
  return { ...page, list };
}

export async function memberLedger(
  ctx: OperatorCtx,
  query: { siteId: number; memberId: number; pageNum?: number },
) {
  requireSiteAccess(ctx, 'points:view', query.siteId);
  const found = await memberById(ctx, query.siteId, query.memberId);
  if (!found) throw failure(ADMIN_MSG.notFound);
  const page = await listBills(ctx, {
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

type MemberRef = { siteId: number; memberId: number };

/** The member of a site in the caller's scope for `permission`, or "not found". */
async function memberOfSite(ctx: OperatorCtx, permission: string, ref: MemberRef): Promise<MemberRow> {
  requireSiteAccess(ctx, permission, ref.siteId);
  const found = await memberById(ctx, ref.siteId, ref.memberId);
  if (!found) throw failure(ADMIN_MSG.notFound);
  return found;
}

/** A member's profile, balance and latest login sessions. */
export async function memberDetail(ctx: OperatorCtx, ref: MemberRef): Promise<AdminMemberDetail> {
  const found = await memberOfSite(ctx, 'members:view', ref);
  const [profile, sessions] = await Promise.all([shown(ctx.db, found), sessionsOf(ctx.db, found.id)]);
  return { ...profile, sessions };
}

const activeCount = async (db: Db, memberId: number) =>
  (await sessionsOf(db, memberId)).filter((s) => s.active).length;

/**
 * Ends every session of the member (a lost phone, a shared account): the revocation commits
 * with its audit row and every process drops its cached copy on the NOTIFY at commit.
 */
export async function revokeMemberSessions(
  ctx: OperatorCtx,
  sessions: SessionStore,
  input: MemberRef & { reason: string },
): Promise<AdminMemberDetail> {
  const found = await memberOfSite(ctx, 'members:manage', input);
  const reason = requireReason(input.reason);
  await audited(ctx, async (tx, record) => {
    const active = await activeCount(tx, found.id);
    await sessions.revokeMember(tx, found.id, 'operator');
    await record({
      siteId: found.siteId,
      action: 'member.sessions.revoke',
      entity: 'member',
      entityId: found.id,
      before: { activeSessions: active },
      after: { activeSessions: 0 },
      reason,
    });
  });
  return memberDetail(ctx, input);
}

/**
 * Freezes (0) or unfreezes (1) a member. A frozen member's sessions end in the same
 * transaction and logins answer the spec's "disabled" message; unfreezing only lets them log in.
 */
export async function setMemberStatus(
  ctx: OperatorCtx,
  sessions: SessionStore,
  input: MemberRef & { status: number; reason: string },
): Promise<AdminMemberDetail> {
  const found = await memberOfSite(ctx, 'members:manage', input);
  const reason = requireReason(input.reason);
  const status = input.status === 0 ? 0 : 1; // the contract lets 0 and 1 through
  await audited(ctx, async (tx, record) => {
    if (!(await setStatus(tx, found.id, status))) throw failure(ADMIN_MSG.memberAlready);
    if (status === 0) await sessions.revokeMember(tx, found.id, 'disabled');
    await record({
      siteId: found.siteId,
      action: status === 0 ? 'member.freeze' : 'member.unfreeze',
      entity: 'member',
      entityId: found.id,
      before: { status: found.status },
      after: { status },
      reason,
    });
  });
  return memberDetail(ctx, input);
}
