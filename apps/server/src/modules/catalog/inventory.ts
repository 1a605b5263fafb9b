import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../lib/prepared';
import { productSpecification, stockMove } from './catalog.tables';

/**
 * Inventory: the only writer of `product_specification.stock`. Stock is taken when an order is
 * submitted and given back when it ends unpaid, is cancelled or refunded, each time inside the
 * caller's transaction so the stock and the order move together.
 */

export interface StockMove {
  specificationId: number;
  num: number;
}

/** Sums moves per specification, in id order: parallel transactions lock rows in one order. */
function mergeMoves(moves: readonly StockMove[]): StockMove[] {
  const sums = new Map<number, number>();
  for (const m of moves) sums.set(m.specificationId, (sums.get(m.specificationId) ?? 0) + m.num);
  return [...sums].sort(([a], [b]) => a - b).map(([specificationId, num]) => ({ specificationId, num }));
}

/**
 * Takes stock for every move or for none: each row changes only when it has enough
 * (conditional UPDATE, which queues parallel takers on the row lock). Run it inside the
 * caller's transaction; it answers the specification ids that were short, after which the
 * caller must roll back (the moves already made are undone with it).
 */
export async function reserveStock(tx: Db, moves: readonly StockMove[]): Promise<number[]> {
  const short: number[] = [];
  for (const { specificationId, num } of mergeMoves(moves)) {
    const taken = await prepared(tx, 'stock_reserve', (name) =>
      tx
        .update(productSpecification)
        .set({ stock: sql`${productSpecification.stock} - ${sql.placeholder('num')}::int` })
        .where(
          and(
            eq(productSpecification.id, sql.placeholder('id')),
            sql`${productSpecification.stock} >= ${sql.placeholder('num')}::int`,
          ),
        )
        .returning({ id: productSpecification.id })
        .prepare(name),
    ).execute({ id: specificationId, num });
    if (taken.length === 0) short.push(specificationId);
  }
  return short;
}

/** Gives stock back (a cancelled or expired order); run in the transaction that ends the order. */
export async function returnStock(tx: Db, moves: readonly StockMove[]): Promise<void> {
  for (const { specificationId, num } of mergeMoves(moves)) {
    await tx
      .update(productSpecification)
      .set({ stock: sql`${productSpecification.stock} + ${num}` })
      .where(eq(productSpecification.id, specificationId));
  }
}

export interface StockAdjustment {
  specificationId: number;
  /** Pieces added (positive) or taken (negative). */
  delta: number;
  /** The site the operator made it through, who and why: the ledger row's fields. */
  siteId: number;
  operatorId: number;
  reason: string;
  /** The stock may not end above this. */
  max: number;
}

/**
 * An operator's adjustment: one guarded UPDATE (the stock never goes below 0 nor above `max`;
 * parallel adjusters queue on the row lock and each sees the other's result) and its row in
 * the stock ledger, in the caller's transaction. Answers the stock after it, or undefined
 * when the guard refused it (nothing changed).
 */
export async function adjustStock(tx: Db, move: StockAdjustment): Promise<number | undefined> {
  const [row] = await tx
    .update(productSpecification)
    .set({ stock: sql`${productSpecification.stock} + ${move.delta}` })
    .where(
      and(
        eq(productSpecification.id, move.specificationId),
        sql`${productSpecification.stock} + ${move.delta} between 0 and ${move.max}`,
      ),
    )
    .returning({ stock: productSpecification.stock });
  if (!row) return undefined;
  await tx.insert(stockMove).values({
    specificationId: move.specificationId,
    siteId: move.siteId,
    delta: move.delta,
    stockAfter: row.stock,
    reason: move.reason,
    operatorId: move.operatorId,
  });
  return row.stock;
}

/**
 * The specifications of a new product with their opening stock, each opening recorded in the
 * stock ledger like an adjustment; in the caller's transaction. Answers the new ids in order.
 */
export async function openSpecifications(
  tx: Db,
  productId: number,
  specs: { specificationValue: string; stock: number }[],
  by: { siteId: number; operatorId: number; reason: string },
): Promise<number[]> {
  const rows = await tx
    .insert(productSpecification)
    .values(
      specs.map((s, sort) => ({ productId, specificationValue: s.specificationValue, stock: s.stock, sort })),
    )
    .returning({ id: productSpecification.id, stock: productSpecification.stock });
  const opened = rows.filter((r) => r.stock > 0);
  if (opened.length)
    await tx
      .insert(stockMove)
      .values(opened.map((r) => ({ specificationId: r.id, delta: r.stock, stockAfter: r.stock, ...by })));
  return rows.map((r) => r.id);
}
