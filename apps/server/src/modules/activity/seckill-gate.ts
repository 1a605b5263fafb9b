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
const SOLD_OUT_MS = 1_000;

interface Gate {
  running: number;
  parked: (() => void)[];
  soldOutUntil: number;
}
const gates = new Map<string, Gate>();

const keyOf = (sale: { activityId: number; specificationId: number }) =>
  `${sale.activityId}:${sale.specificationId}`;

function gateOf(key: string): Gate {
  let gate = gates.get(key);
  if (!gate) {
    gate = { running: 0, parked: [], soldOutUntil: 0 };
    gates.set(key, gate);
  }
  return gate;
}

const soldOut = (gate: Gate, now: number) => gate.soldOutUntil > now;

/**
 * Waits for a turn of the sale's order transaction; refuses at once (or when its turn comes)
 * while the sale is believed sold out. Answers the function that gives the turn back.
 */
export async function enterSeckill(
  sale: { activityId: number; specificationId: number },
  clock: () => number = Date.now,
): Promise<() => void> {
  const key = keyOf(sale);
  const gate = gateOf(key);
  if (soldOut(gate, clock())) throw failure(SECKILL_MSG.soldOut);
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
  if (soldOut(gate, clock())) {
    leave();
    throw failure(SECKILL_MSG.soldOut);
  }
  return leave;
}

/** The sale was seen empty: believe it for a moment. */
export function markSoldOut(
  sale: { activityId: number; specificationId: number },
  clock: () => number = Date.now,
) {
  const gate = gates.get(keyOf(sale));
  if (gate) gate.soldOutUntil = clock() + SOLD_OUT_MS;
}

/** Stock came back in this process: ask the database again. */
export function clearSoldOut(sale: { activityId: number; specificationId: number }) {
  const gate = gates.get(keyOf(sale));
  if (gate) gate.soldOutUntil = 0;
}
