import { ADMIN_MSG, type Assignment, grants } from '@sitemall/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { verify as verifyTotp } from 'otplib';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { AppError, failure, tokenInvalid, unauthorized } from '../../lib/errors';
import { sha256 } from '../identity/crypto';
import type { Limiter } from '../identity/limits';
import { verifyPassword } from '../identity/passwords';
import { newToken } from '../identity/sessions';
import {
  operator,
  operatorAssignment,
  operatorLoginLog,
  operatorRole,
  operatorSession,
} from './admin.tables';

/** A console session ends after this long without a request ... */
export const OPERATOR_IDLE_MS = 30 * 60_000;
/** ... and at the latest this long after login. */
export const OPERATOR_ABSOLUTE_MS = 12 * 60 * 60_000;
const TOUCH_EVERY_MS = 60_000;

/** Failed logins per username and address in a window: the owner elsewhere is never locked out. */
export const LOGIN_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_S = 15 * 60;
/** Login attempts per address per minute, whatever the username. */
export const LOGINS_PER_IP_MINUTE = 30;

export const forbidden = (msg: string = ADMIN_MSG.forbidden) => new AppError(403, msg);

/** Sites a permission reaches: every site, or a list. */
/** The console's caller, resolved by the /admin-api hooks for every route but the login. */
export function operatorOf(req: FastifyRequest): OperatorCtx {
  if (!req.operatorCtx) throw forbidden();
  return req.operatorCtx;
}

export type SiteScope = 'all' | number[];

export interface Operator {
  id: number;
  username: string;
  name: string;
}

/** Whether the operator has an authenticator app bound, and whether one is mandatory. */
export interface SecondFactor {
  totpBound: boolean;
  totpRequired: boolean;
}

/** Who calls the console and from where; every admin service takes it first. */
export interface OperatorCtx {
  db: Db;
  operator: Operator;
  assignments: Assignment[];
  /** As the session lookup read it (`me` reports it without reading the operator again). */
  secondFactor: SecondFactor;
  token: string;
  ip: string;
  requestId: string;
}

/** The sites on which the operator holds `permission` (union of the assignments granting it). */
export function scopeOf(ctx: Pick<OperatorCtx, 'assignments'>, permission: string): SiteScope {
  const sites = new Set<number>();
  for (const a of ctx.assignments) {
    if (!a.permissions.some((held) => grants(held, permission))) continue;
    if (a.siteIds === null) return 'all';
    for (const id of a.siteIds) sites.add(id);
  }
  return [...sites].sort((x, y) => x - y);
}

export const inScope = (scope: SiteScope, siteId: number) => scope === 'all' || scope.includes(siteId);
export const scopeIsEmpty = (scope: SiteScope) => scope !== 'all' && scope.length === 0;

/** 403 unless the operator holds `permission` on `siteId`. */
export function requireSiteAccess(ctx: Pick<OperatorCtx, 'assignments'>, permission: string, siteId: number) {
  if (!inScope(scopeOf(ctx, permission), siteId)) throw forbidden(ADMIN_MSG.forbiddenSite);
}

/**
 * What a list filters on: the one site asked for (403 outside the scope), or the whole scope.
 * An empty array means "no site": services answer an empty page.
 */
export function sitesToRead(ctx: OperatorCtx, permission: string, siteId?: number): SiteScope {
  const scope = scopeOf(ctx, permission);
  if (siteId === undefined) return scope;
  if (!inScope(scope, siteId)) throw forbidden(ADMIN_MSG.forbiddenSite);
  return [siteId];
}

export async function assignmentsOf(db: Db, operatorId: number): Promise<Assignment[]> {
  const rows = await db
    .select({
      roleId: operatorRole.id,
      roleName: operatorRole.name,
      permissions: operatorRole.permissions,
      siteIds: operatorAssignment.siteIds,
    })
    .from(operatorAssignment)
    .innerJoin(operatorRole, eq(operatorRole.id, operatorAssignment.roleId))
    .where(eq(operatorAssignment.operatorId, operatorId))
    .orderBy(operatorRole.id);
  return rows.map((r) => ({ ...r, siteIds: r.siteIds ?? null }));
}

// ---- sessions -------------------------------------------------------------------------------

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The operator behind a console token, or 401 (unknown) / 416 (ended). Not cached: console
 * traffic is small, and a revoked role or session must take effect on the next request.
 */
export async function resolveOperator(
  db: Db,
  token: string | undefined,
  now = Date.now(),
): Promise<Pick<OperatorCtx, 'operator' | 'assignments' | 'secondFactor'>> {
  if (!token || !TOKEN.test(token)) throw unauthorized(ADMIN_MSG.loginFirst);
  const [row] = await db
    .select({
      sessionId: operatorSession.id,
      lastSeenAt: operatorSession.lastSeenAt,
      expiresAt: operatorSession.expiresAt,
      revokedAt: operatorSession.revokedAt,
      id: operator.id,
      username: operator.username,
      name: operator.name,
      status: operator.status,
      totpBound: sql<boolean>`${operator.totpSecret} is not null`,
      totpRequired: operator.totpRequired,
    })
    .from(operatorSession)
    .innerJoin(operator, eq(operator.id, operatorSession.operatorId))
    .where(eq(operatorSession.tokenHash, sha256(token)));
  if (!row) throw unauthorized(ADMIN_MSG.loginFirst);
  const ended =
    row.revokedAt !== null ||
    row.status !== 1 ||
    now >= row.expiresAt.getTime() ||
    now - row.lastSeenAt.getTime() >= OPERATOR_IDLE_MS;
  if (ended) throw tokenInvalid();
  if (now - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS)
    await db
      .update(operatorSession)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(operatorSession.id, row.sessionId));
  return {
    operator: { id: row.id, username: row.username, name: row.name },
    assignments: await assignmentsOf(db, row.id),
    secondFactor: { totpBound: row.totpBound, totpRequired: row.totpRequired },
  };
}

export async function logout(ctx: OperatorCtx): Promise<void> {
  await ctx.db
    .update(operatorSession)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSession.tokenHash, sha256(ctx.token)), isNull(operatorSession.revokedAt)));
}

// ---- login ----------------------------------------------------------------------------------

/** Whether a code of the operator's authenticator app fits the secret; the step before and after count too (a phone's clock drifts). */
export const totpCodeMatches = (secret: string, code: string, now = Date.now()) =>
  verifyTotp({ secret, token: code, epochTolerance: 30, epoch: Math.floor(now / 1000) })
    .then((r) => r.valid)
    .catch(() => false);

export interface LoginInput {
  username: string;
  password: string;
  totp?: string;
  ip: string;
  userAgent: string;
}

/**
 * Password, then TOTP when the operator has one bound. Failures count per username and
 * address (not per username alone, so nobody can lock the owner out from elsewhere); every
 * attempt goes to the login log.
 */
export async function login(
  ctx: RequestContext,
  limiter: Limiter,
  input: LoginInput,
  now = Date.now(),
): Promise<{ token: string; totpNeeded: boolean }> {
  const { db } = ctx;
  const username = input.username.trim();
  const failureKey = `admin-login:${username.toLowerCase()}:${input.ip}`;
  const log = (result: string, operatorId: number | null = null) =>
    db.insert(operatorLoginLog).values({
      username: username.slice(0, 64),
      operatorId,
      result,
      ip: input.ip,
      userAgent: input.userAgent.slice(0, 300),
    });
  const refuse = async (result: string, msg: string, operatorId: number | null = null) => {
    await log(result, operatorId);
    return failure(msg);
  };

  const perIp = await limiter.hit(`admin-login-ip:${input.ip}`, LOGINS_PER_IP_MINUTE, 60);
  if (!perIp.allowed) throw await refuse('limited', ADMIN_MSG.tooManyLogins);
  if ((await limiter.peek(failureKey)).count >= LOGIN_FAILURES)
    throw await refuse('limited', ADMIN_MSG.tooManyLogins);

  const [found] = await db.select().from(operator).where(eq(operator.username, username));
  const passwordOk = await verifyPassword(found?.passwordHash, input.password);
  if (!found || !passwordOk || found.status !== 1) {
    await limiter.hit(failureKey, LOGIN_FAILURES, LOGIN_FAILURE_WINDOW_S);
    throw await refuse('bad_password', ADMIN_MSG.badLogin, found?.id ?? null);
  }
  if (found.totpRequired && !found.totpSecret)
    throw await refuse('totp_unbound', ADMIN_MSG.totpNotBound, found.id);
  if (found.totpSecret) {
    if (!input.totp) {
      await log('totp_needed', found.id);
      return { token: '', totpNeeded: true };
    }
    if (!(await totpCodeMatches(found.totpSecret, input.totp, now))) {
      await limiter.hit(failureKey, LOGIN_FAILURES, LOGIN_FAILURE_WINDOW_S);
      throw await refuse('bad_totp', ADMIN_MSG.badTotp, found.id);
    }
  }
  await limiter.reset(failureKey);
  const token = newToken();
  await db.insert(operatorSession).values({
    tokenHash: sha256(token),
    operatorId: found.id,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    expiresAt: new Date(now + OPERATOR_ABSOLUTE_MS),
  });
  await log('ok', found.id);
  return { token, totpNeeded: false };
}
