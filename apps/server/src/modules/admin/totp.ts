import { ADMIN_MSG, type AdminOperator, type TotpBindBody, type TotpSetup } from '@sitemall/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { generateSecret, generateURI } from 'otplib';
import { failure } from '../../lib/errors';
import { verifyPassword } from '../identity/passwords';
import { type OperatorCtx, totpCodeMatches } from './admin.service';
import { operator } from './admin.tables';
import { audited, requireReason } from './audit';
import { presentOperator, requirePlatform } from './operators';

/**
 * The console's second factor: an operator binds an authenticator app (the secret is kept only
 * once a code from the app proves it, with the password as well, so a session left open cannot
 * bind a stranger's phone); a platform admin makes it mandatory for an operator or resets a
 * lost one. Login checks it (admin.service.ts). Every change is audited, never the secret.
 */

const ISSUER = 'Sitemall 运营后台';

export async function setupTotp(ctx: OperatorCtx): Promise<TotpSetup> {
  const secret = generateSecret();
  return { secret, uri: generateURI({ issuer: ISSUER, label: ctx.operator.username, secret }) };
}

export async function bindTotp(ctx: OperatorCtx, input: TotpBindBody, now = Date.now()): Promise<void> {
  const [me] = await ctx.db.select().from(operator).where(eq(operator.id, ctx.operator.id));
  if (!me) throw failure(ADMIN_MSG.notFound);
  if (me.totpSecret) throw failure(ADMIN_MSG.totpAlreadyBound);
  if (!(await verifyPassword(me.passwordHash, input.password))) throw failure(ADMIN_MSG.wrongPassword);
  if (!(await totpCodeMatches(input.secret, input.code, now))) throw failure(ADMIN_MSG.badTotp);
  await audited(ctx, async (tx, record) => {
    // Guarded: of two binds in parallel (two tabs), the second finds a secret and binds nothing.
    const [bound] = await tx
      .update(operator)
      .set({ totpSecret: input.secret })
      .where(and(eq(operator.id, me.id), isNull(operator.totpSecret)))
      .returning({ id: operator.id });
    if (!bound) throw failure(ADMIN_MSG.totpAlreadyBound);
    await record({
      siteId: null,
      action: 'operator.totp.bind',
      entity: 'operator',
      entityId: me.id,
      before: { totpBound: false },
      after: { totpBound: true },
    });
  });
}

export async function setOperatorTotp(
  ctx: OperatorCtx,
  input: { operatorId: number; required?: boolean; reset?: true; reason: string },
): Promise<AdminOperator> {
  requirePlatform(ctx, 'operators:manage');
  const reason = requireReason(input.reason);
  if (input.required === undefined && !input.reset) throw failure(ADMIN_MSG.totpNothingToDo);
  const updated = await audited(ctx, async (tx, record) => {
    const [before] = await tx.select().from(operator).where(eq(operator.id, input.operatorId)).for('update');
    if (!before) throw failure(ADMIN_MSG.notFound);
    const [after] = await tx
      .update(operator)
      .set({
        ...(input.required === undefined ? {} : { totpRequired: input.required }),
        ...(input.reset ? { totpSecret: null } : {}),
      })
      .where(eq(operator.id, before.id))
      .returning();
    const state = (o: typeof before) => ({ totpBound: o.totpSecret !== null, totpRequired: o.totpRequired });
    await record({
      siteId: null,
      action: input.reset ? 'operator.totp.reset' : 'operator.totp.require',
      entity: 'operator',
      entityId: before.id,
      before: state(before),
      after: state(after as typeof before),
      reason,
    });
    return after as typeof before;
  });
  return presentOperator(ctx.db, updated);
}
