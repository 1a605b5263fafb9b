import { ADMIN_MSG } from '@sitemall/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { forbidden, type OperatorCtx, requireSiteAccess } from './admin.service';
import { audited } from './audit';
import { operatorNames } from './operators';

/**
 * Four eyes (maker-checker) for console batches, the points issues and the card batches: one
 * operator makes a batch, another decides it. Every status move is one of the batch's
 * transitions and a guarded UPDATE (only from the status the batch still has, so of two
 * decisions racing one moves and the other is told the state changed; never by the maker when a
 * checker decides, in the statement as well as before it), and each step writes its audit row in
 * the same transaction.
 */

/** A batch table: its rows belong to a site, have a status, a maker and a checker. */
type BatchTable = PgTable & {
  id: PgColumn;
  siteId: PgColumn;
  status: PgColumn;
  makerId: PgColumn;
  approverId: PgColumn;
};

/** What every batch row has. */
interface BatchRow {
  id: number;
  siteId: number;
  status: string;
  makerId: number;
  reason: string;
}

export interface FourEyesOptions<Status extends string> {
  /** The audit rows' entity (the table's name). */
  entity: string;
  /** The moves there are, as [from, to, event]. */
  transitions: readonly (readonly [Status, Status, string])[];
  /** The checker is the maker (403); the batch is no longer in the status the move starts from. */
  msg: { own: string; state: string };
}

/** One step of a batch as its audit row says it. */
export interface StepAudit<Row> {
  action: string;
  /** The step's own reason; the batch's by default. */
  reason?: string;
  /** A checker's decision: refused (403) to the batch's maker before anything runs. */
  checker?: boolean;
  after: (row: Row) => unknown;
}

export function fourEyes<T extends BatchTable, Status extends string>(
  table: T,
  options: FourEyesOptions<Status>,
) {
  type Row = T['$inferSelect'] & BatchRow;

  /** The batch, if the operator holds `permission` on its site. */
  async function load(ctx: OperatorCtx, id: number, permission: string): Promise<Row> {
    const [row] = await ctx.db
      .select()
      .from(table as PgTable)
      .where(eq(table.id, id));
    if (!row) throw failure(ADMIN_MSG.notFound);
    const batch = row as Row;
    requireSiteAccess(ctx, permission, batch.siteId);
    return batch;
  }

  /**
   * Moves the batch `from` → `to` if it still has `from`; a checker (operator id) is recorded
   * as the approver and must not be the maker. Anything else answers `msg.state`.
   */
  async function move(
    tx: Db,
    step: { id: number; from: Status; to: Status; checker?: number; set?: Partial<Row> },
  ): Promise<Row> {
    if (!options.transitions.some(([from, to]) => from === step.from && to === step.to))
      throw failure(options.msg.state);
    const set = {
      ...step.set,
      status: step.to,
      ...(step.checker === undefined ? {} : { approverId: step.checker }),
    } as PgUpdateSetSource<PgTable>;
    const [row] = await tx
      .update(table as PgTable)
      .set(set)
      .where(
        and(
          eq(table.id, step.id),
          eq(table.status, step.from),
          step.checker === undefined ? undefined : ne(table.makerId, step.checker),
        ),
      )
      .returning();
    if (!row) throw failure(options.msg.state);
    return row as Row;
  }

  /** Runs `work` on the batch in one transaction with the step's audit row. */
  async function step(
    ctx: OperatorCtx,
    batch: Row,
    audit: StepAudit<Row>,
    work: (tx: Db) => Promise<Row>,
  ): Promise<Row> {
    if (audit.checker && batch.makerId === ctx.operator.id) throw forbidden(options.msg.own);
    return audited(ctx, async (tx, record) => {
      const row = await work(tx);
      await record({
        siteId: batch.siteId,
        action: audit.action,
        entity: options.entity,
        entityId: batch.id,
        before: { status: batch.status },
        after: audit.after(row),
        reason: audit.reason ?? batch.reason,
      });
      return row;
    });
  }

  return { load, move, step };
}

/** Who made and who decided each request, by name (what the consoles' queues show). */
export async function decidersOf(db: Db, rows: readonly { makerId: number; approverId: number | null }[]) {
  const names = await operatorNames(
    db,
    rows.flatMap((r) => [r.makerId, r.approverId ?? r.makerId]),
  );
  return (r: { makerId: number; approverId: number | null }) => ({
    makerName: names.get(r.makerId) ?? '',
    approverName: r.approverId ? (names.get(r.approverId) ?? '') : '',
  });
}
