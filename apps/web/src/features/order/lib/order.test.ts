// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { purchaseFromQuery } from '../api.ts';
import { offeredPayWays, timeLeft } from './countdown.ts';
import { groupLinesBySource } from './groups.ts';
import { createRequestIdHolder, newRequestId } from './idempotency.ts';

describe('idempotency key of a submission', () => {
  it('stays the same for the same purchase during a visit (double click = one order)', () => {
    let n = 0;
    const holder = createRequestIdHolder(() => `key${++n}`);
    const first = holder.keyFor('cart:1,2|addr:7');
    expect(holder.keyFor('cart:1,2|addr:7')).toBe(first);
    expect(holder.keyFor('cart:1,2|addr:8')).toBe('key2');
    // A new visit makes a new holder, and a new key.
    expect(createRequestIdHolder(() => 'other').keyFor('cart:1,2|addr:7')).toBe('other');
  });

  it('fits the contract pattern', () => {
    expect(newRequestId()).toMatch(/^[\w.:-]{8,64}$/);
    expect(newRequestId()).not.toBe(newRequestId());
  });
});

describe('pay page helpers', () => {
  it('counts down to the expiry', () => {
    expect(timeLeft(90_500, 0)?.text).toBe('01:31');
    expect(timeLeft(3_600_000 + 61_000, 0)?.text).toBe('1:01:01');
    expect(timeLeft(1000, 1000)).toBeNull();
  });

  it('offers the pay ways of the site paywayConf only', () => {
    const ways = [{ code: 'wx_pc' }, { code: 'ye' }];
    expect(offeredPayWays(ways, ['ye'])).toEqual([{ code: 'ye' }]);
    expect(offeredPayWays(ways, ['ye', 'wx_pc'])).toEqual(ways);
  });
});

describe('submission query and grouping', () => {
  it('reads selected cart lines or a buy-now line', () => {
    expect(purchaseFromQuery(new URLSearchParams('cartIds=3,4,x'))).toEqual({
      kind: 'cart',
      cartIds: [3, 4],
    });
    expect(purchaseFromQuery(new URLSearchParams('productId=5&specificationId=6&num=2'))).toEqual({
      kind: 'buyNow',
      productId: 5,
      specificationId: 6,
      num: 2,
    });
    expect(purchaseFromQuery(new URLSearchParams(''))).toBeNull();
  });

  it('groups lines per source (one child order each)', () => {
    const a = { source: 1, type: 1, name: 'A' };
    const b = { source: 2, type: 1, name: 'B' };
    expect(
      groupLinesBySource([{ source: a }, { source: b }, { source: a }]).map((g) => g.lines.length),
    ).toEqual([2, 1]);
  });
});
