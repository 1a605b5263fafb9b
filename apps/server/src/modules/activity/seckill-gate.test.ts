import { SECKILL_MSG } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { clearSoldOut, enterSeckill, markSoldOut } from './seckill-gate';

/** The in-process gate with a fake clock. */
describe('flash-sale admission gate', () => {
  it('lets three run, parks the rest in order, and passes turns on', async () => {
    const sale = { activityId: 1, specificationId: 1 };
    const leaves = await Promise.all([enterSeckill(sale), enterSeckill(sale), enterSeckill(sale)]);
    const order: number[] = [];
    const parked = [4, 5].map(async (n) => {
      const leave = await enterSeckill(sale);
      order.push(n);
      return leave;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    leaves[0]!();
    const fourth = await parked[0]!;
    expect(order).toEqual([4]);
    leaves[1]!();
    const fifth = await parked[1]!;
    expect(order).toEqual([4, 5]);
    for (const leave of [leaves[2]!, fourth, fifth]) leave();
  });

  it('refuses while believed sold out, the parked included, until the moment passes or stock returns', async () => {
    const sale = { activityId: 2, specificationId: 1 };
    let now = 1_000;
    const clock = () => now;
    const running = await Promise.all([1, 2, 3].map(() => enterSeckill(sale, { clock })));
    const parked = enterSeckill(sale, { clock });
    markSoldOut(sale, clock);
    await expect(enterSeckill(sale, { clock })).rejects.toMatchObject({ msg: SECKILL_MSG.soldOut });
    running[0]!();
    await expect(parked).rejects.toMatchObject({ msg: SECKILL_MSG.soldOut });
    now += 1_001;
    const later = await enterSeckill(sale, { clock });
    markSoldOut(sale, clock);
    later();
    clearSoldOut(sale);
    const again = await enterSeckill(sale, { clock });
    for (const leave of [running[1]!, running[2]!, again]) leave();
  });

  it('lets a request Redis already admitted pass a sold-out flag set after it', async () => {
    const sale = { activityId: 3, specificationId: 1 };
    markSoldOut(sale);
    await expect(enterSeckill(sale)).rejects.toMatchObject({ msg: SECKILL_MSG.soldOut });
    const leave = await enterSeckill(sale, { admitted: true });
    leave();
    clearSoldOut(sale);
  });
});
