import { describe, expect, it } from 'vitest';
import { ORDER_STATUS_LABEL } from './constants.ts';
import { ORDER_STATUS } from './order.ts';
import {
  canMove,
  ORDER_EVENTS,
  ORDER_FINAL_STATUSES,
  ORDER_TRANSITIONS,
  type OrderTransition,
  transitionOf,
} from './order-machine.ts';

const statuses = Object.values(ORDER_STATUS) as number[];
const edgeKey = (t: OrderTransition) => `${t.from}->${t.to}`;

describe('order state machine (transition table)', () => {
  it('names every status of spec section 4, and only those', () => {
    expect([...statuses].sort((a, b) => a - b)).toEqual([0, 4, 11, 12, 15, 21, 22, 23, 24, 31, 41, 51]);
    expect(
      Object.keys(ORDER_STATUS_LABEL)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('uses only known statuses and named events', () => {
    for (const t of ORDER_TRANSITIONS) {
      if (t.from !== null) expect(statuses).toContain(t.from);
      expect(statuses).toContain(t.to);
      expect(ORDER_EVENTS).toContain(t.event);
    }
    // Every named event causes at least one move: no dead names.
    expect(new Set(ORDER_TRANSITIONS.map((t) => t.event))).toEqual(new Set(ORDER_EVENTS));
  });

  it('has no duplicate edge, and one event leads from a status to one status', () => {
    const edges = ORDER_TRANSITIONS.map(edgeKey);
    expect(new Set(edges).size).toBe(edges.length);
    const byEvent = ORDER_TRANSITIONS.map((t) => `${t.from}:${t.event}`);
    expect(new Set(byEvent).size).toBe(byEvent.length);
    expect(ORDER_TRANSITIONS.some((t) => t.from === t.to)).toBe(false);
  });

  it('reaches every status from submission', () => {
    const reached = new Set<number>();
    let frontier: (number | null)[] = [null];
    while (frontier.length > 0) {
      const next = ORDER_TRANSITIONS.filter((t) => frontier.includes(t.from) && !reached.has(t.to)).map(
        (t) => t.to,
      );
      for (const s of next) reached.add(s);
      frontier = [...new Set(next)];
    }
    expect([...reached].sort((a, b) => a - b)).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('final statuses are exactly those without exits; every other status has one', () => {
    const withoutExit = statuses.filter((s) => !ORDER_TRANSITIONS.some((t) => t.from === s));
    expect(withoutExit.sort((a, b) => a - b)).toEqual([...ORDER_FINAL_STATUSES].sort((a, b) => a - b));
    expect(ORDER_FINAL_STATUSES).toEqual(expect.arrayContaining([4, 21, 41, 51]));
  });

  it('canMove and transitionOf answer the table and nothing else', () => {
    for (const from of [null, ...statuses])
      for (const to of statuses)
        expect(canMove(from, to), `${from}->${to}`).toBe(
          ORDER_TRANSITIONS.some((t) => t.from === from && t.to === to),
        );
    for (const t of ORDER_TRANSITIONS) expect(transitionOf(t.from, t.event)).toBe(t.to);
    expect(transitionOf(ORDER_STATUS.pendingPayment, 'ship')).toBeUndefined();
    expect(transitionOf(ORDER_STATUS.completed, 'cancel')).toBeUndefined();
    expect(canMove(ORDER_STATUS.withdrawn, ORDER_STATUS.pendingPayment)).toBe(false);
  });

  it('holds the moves the server makes today', () => {
    const S = ORDER_STATUS;
    expect(transitionOf(null, 'submit')).toBe(S.pendingPayment);
    expect(transitionOf(S.pendingPayment, 'pay')).toBe(S.confirming);
    expect(transitionOf(S.pendingPayment, 'payVirtual')).toBe(S.completed);
    expect(transitionOf(S.pendingPayment, 'cancel')).toBe(S.withdrawn);
    expect(transitionOf(S.pendingPayment, 'expire')).toBe(S.expired);
    expect(transitionOf(S.confirming, 'ship')).toBe(S.awaitingReceipt);
    expect(transitionOf(S.confirming, 'refund')).toBe(S.withdrawn);
    expect(transitionOf(S.awaitingReceipt, 'confirm')).toBe(S.completed);
  });
});
