import { ADMIN_MSG, type AdminOperator, type LoginLogRow } from '@sitemall/contract';
import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { hashPassword } from '../identity/passwords';
import { assignmentsOf, forbidden, type OperatorCtx, scopeOf } from './admin.service';
import { operator, operatorAssignment, operatorLoginLog, operatorRole, sitePolicy } from './admin.tables';
import { audited, requireReason } from './audit';

/**
 * Operators, roles and the login log. Operators are not tied to a site, so these screens are
 * for operators who hold the permission on all sites (a platform admin): anyone else would
 * see people beyond their sites.
 */
/** Operators' names (or usernames) by id, for lists that show who made and who approved. */
export async function operatorNames(
  db: Db,
  ids: readonly number[],
  field: 'name' | 'username' = 'name',
): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: operator.id, name: operator[field] })
    .from(operator)
    .where(inArray(operator.id, unique));
  return new Map(rows.map((o) => [o.id, o.name]));
}

export function requirePlatform(ctx: OperatorCtx, permission: string) {
  if (scopeOf(ctx, permission) !== 'all') throw forbidden();
}

export async function presentOperator(db: Db, row: typeof operator.$inferSelect): Promise<AdminOperator> {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    status: row.status,
    totpBound: row.totpSecret !== null,
    totpRequired: row.totpRequired,
    assignments: await assignmentsOf(db, row.id),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listOperators(ctx: OperatorCtx, pageNum = 1) {
  requirePlatform(ctx, 'operators:view');
  return listPage({
    pageNum,
    rows: ctx.db.select().from(operator).orderBy(asc(operator.id)),
    total: ctx.db.select({ n: count() }).from(operator),
    present: (rows) => Promise.all(rows.map((r) => presentOperator(ctx.db, r))),
  });
}

export async function listRoles(ctx: OperatorCtx) {
  requirePlatform(ctx, 'operators:view');
  return { list: await ctx.db.select().from(operatorRole).orderBy(asc(operatorRole.id)) };
}

/** Gives an operator a role on a site scope (replacing that role's earlier scope); audited with a reason. */
export async function assignRole(
  ctx: OperatorCtx,
  input: { operatorId: number; roleId: number; siteIds?: number[]; reason: string },
): Promise<AdminOperator> {
  requirePlatform(ctx, 'operators:manage');
  const reason = requireReason(input.reason);
  const [target] = await ctx.db.select().from(operator).where(eq(operator.id, input.operatorId));
  const [role] = await ctx.db.select().from(operatorRole).where(eq(operatorRole.id, input.roleId));
  if (!target || !role) throw failure(ADMIN_MSG.notFound);
  const siteIds = input.siteIds?.length ? [...new Set(input.siteIds)].sort((a, b) => a - b) : null;
  await audited(ctx, async (tx, record) => {
    const before = await assignmentsOf(tx, target.id);
    await tx
      .insert(operatorAssignment)
      .values({ operatorId: target.id, roleId: role.id, siteIds })
      .onConflictDoUpdate({
        target: [operatorAssignment.operatorId, operatorAssignment.roleId],
        set: { siteIds },
      });
    await record({
      siteId: null,
      action: 'operator.assign',
      entity: 'operator',
      entityId: target.id,
      before,
      after: await assignmentsOf(tx, target.id),
      reason,
    });
  });
  const [updated] = await ctx.db.select().from(operator).where(eq(operator.id, target.id));
  return presentOperator(ctx.db, updated as typeof operator.$inferSelect);
}

export async function loginLog(ctx: OperatorCtx, pageNum = 1) {
  requirePlatform(ctx, 'operators:view');
  return listPage({
    pageNum,
    rows: ctx.db.select().from(operatorLoginLog).orderBy(desc(operatorLoginLog.id)),
    total: ctx.db.select({ n: count() }).from(operatorLoginLog),
    present: (rows) => rows.map((r): LoginLogRow => ({ ...r, at: r.at.toISOString() })),
  });
}

// ---- demo and scripts -----------------------------------------------------------------------

export interface OperatorSeed {
  username: string;
  name: string;
  password: string;
  roles: { role: string; siteIds: number[] | null }[];
}

// argon2id costs ~50 ms a hash and every test seeds the demo: hash each demo password once.
const seedHashes = new Map<string, Promise<string>>();
const seedHash = (password: string) => {
  let hash = seedHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    seedHashes.set(password, hash);
  }
  return hash;
};

/** Creates roles (by name, once) and operators with their assignments. */
export async function seedOperators(
  db: Db,
  roles: { name: string; permissions: string[] }[],
  operators: OperatorSeed[],
  policies: { siteId: number; pointsIssueThreshold: number; refundThreshold?: number }[] = [],
): Promise<void> {
  const created = await db.insert(operatorRole).values(roles).onConflictDoNothing().returning();
  const roleId = new Map(created.map((r) => [r.name, r.id]));
  for (const seed of operators) {
    const [row] = await db
      .insert(operator)
      .values({ username: seed.username, name: seed.name, passwordHash: await seedHash(seed.password) })
      .returning();
    if (!row) continue;
    for (const { role, siteIds } of seed.roles) {
      const id = roleId.get(role);
      if (id) await db.insert(operatorAssignment).values({ operatorId: row.id, roleId: id, siteIds });
    }
  }
  if (policies.length > 0) await db.insert(sitePolicy).values(policies).onConflictDoNothing();
}
