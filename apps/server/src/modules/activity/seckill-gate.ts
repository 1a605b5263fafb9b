import { SECKILL_MSG } from '@sitemall/contract';
import { failure } from '../../lib/errors';

/**
 * The in-process admission gate in front of a flash sale's order transactions. In a rush every
 * transaction queues on the same stock row while holding a pooled connection, so hundreds of
 * buyers would starve the pool for everyone. The gate lets a few transactions per sale run at
 * once and parks the rest in memory; a sold-out flag (seen by a failed or emptying take) refuses
 * the parked and the late without any database work. The flag only lives a moment, because
 * stock comes back (a cancelled order, a rolled-back winner, another process): the database
 * stays the truth.
 */

/** Order transactions of one sale running at once in this process. */
const RUNNING_PER_SALE = 3;
/** How long "sold out" is believed without asking the database again. */
export const SOLD_OUT_MS = 1_000;

interface Gate {
  running: number;
  parked: (() => void)[];
}
const gates = new Map<string, Gate>();
/**
 * Sales seen sold out, until when: apart from the gates, which go away whenever no transaction
 * of the sale runs, so the flag outlives the last transaction that saw the sale empty.
 */
const soldOutUntil = new Map<string, number>();
/** Bound on the flags kept (each is a moment long; a sweep drops the passed ones). */
const MAX_FLAGS = 10_000;

/**
 * The answer to a sale believed sold out, made once: in a rush it is nearly every answer, and
 * a new Error each time (its stack trace captured) was a twentieth of a refusal's CPU. It holds
 * nothing of a request, and refusals are answered in the envelope, never logged with a stack.
 */
export const SOLD_OUT = failure(SECKILL_MSG.soldOut);

/** Refuses at once while the sale is believed sold out (no database or Redis work). */
export function refuseIfSoldOut(
  sale: { activityId: number; specificationId: number },
  clock: () => number = Date.now,
) {
  if (isSoldOut(sale, clock)) throw SOLD_OUT;
}

const keyOf = (sale: { activityId: number; specificationId: number }) =>
  `${sale.activityId}:${sale.specificationId}`;

function gateOf(key: string): Gate {
  let gate = gates.get(key);
  if (!gate) {
    gate = { running: 0, parked: [] };
    gates.set(key, gate);
  }
  return gate;
}

/** Whether the sale is believed sold out now (no database or Redis work needed to refuse). */
export function isSoldOut(
  sale: { activityId: number; specificationId: number },
  clock: () => number = Date.now,
): boolean {
  const key = keyOf(sale);
  const until = soldOutUntil.get(key);
  if (until === undefined) return false;
  if (until > clock()) return true;
  soldOutUntil.delete(key);
  return false;
}

/**
 * Waits for a turn of the sale's order transaction; refuses at once (or when its turn comes)
 * while the sale is believed sold out. Answers the function that gives the turn back.
 */
export async function enterSeckill(
  sale: { activityId: number; specificationId: number },
  {
    clock = Date.now,
    admitted = false,
  }: {
    clock?: () => number;
    /**
     * Redis took a piece for this request already: the flag (set by those Redis refused after
     * it) is not for it, else the last pieces would be refused to their own buyers.
     */
    admitted?: boolean;
  } = {},
): Promise<() => void> {
  const soldOut = () => !admitted && isSoldOut(sale, clock);
  if (soldOut()) throw SOLD_OUT;
  const key = keyOf(sale);
  const gate = gateOf(key);
  if (gate.running < RUNNING_PER_SALE) gate.running += 1;
  else await new Promise<void>((turn) => gate.parked.push(turn));
  // The turn passes to the next parked request, or the slot is freed.
  const leave = () => {
    const next = gate.parked.shift();
    if (next) next();
    else {
      gate.running -= 1;
      if (gate.running === 0) gates.delete(key);
    }
  };
  if (soldOut()) {
    leave();
    throw SOLD_OUT;
  }
  return leave;
}

/** The sale was seen empty: believe it for a moment. */
export function markSoldOut(
  sale: { activityId: number; specificationId: number },
  clock: () => number = Date.now,
) {
  const now = clock();
  if (soldOutUntil.size >= MAX_FLAGS)
    for (const [key, until] of soldOutUntil) if (until <= now) soldOutUntil.delete(key);
  if (soldOutUntil.size >= MAX_FLAGS) soldOutUntil.clear();
  soldOutUntil.set(keyOf(sale), now + SOLD_OUT_MS);
}

/** Stock came back in this process: ask the database again. */
export function clearSoldOut(sale: { activityId: number; specificationId: number }) {
  soldOutUntil.delete(keyOf(sale));
}
