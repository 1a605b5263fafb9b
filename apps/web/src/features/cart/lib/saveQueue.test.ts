// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSaveQueue } from './saveQueue.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('debounced cart save queue', () => {
  it('saves the last quantity of each line once, 600 ms after the last edit', async () => {
    const save = vi.fn(async (_changes: Map<number, number>) => undefined);
    const queue = createSaveQueue<number, number>({ delayMs: 600, save });
    queue.set(1, 2);
    await vi.advanceTimersByTimeAsync(400);
    queue.set(1, 3);
    queue.set(2, 5);
    await vi.advanceTimersByTimeAsync(599);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect([...(save.mock.calls[0]?.[0] ?? [])]).toEqual([
      [1, 3],
      [2, 5],
    ]);
    expect(queue.pending()).toBe(0);
  });

  it('flush saves at once; drop forgets a removed line', async () => {
    const save = vi.fn(async (_changes: Map<number, number>) => undefined);
    const queue = createSaveQueue<number, number>({ delayMs: 600, save });
    queue.set(1, 2);
    queue.set(2, 4);
    queue.drop(2);
    await queue.flush();
    expect([...(save.mock.calls[0]?.[0] ?? [])]).toEqual([[1, 2]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(save).toHaveBeenCalledTimes(1);
    await queue.flush();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('reports a failed save', async () => {
    const onError = vi.fn();
    const queue = createSaveQueue<number, number>({
      delayMs: 600,
      save: async () => {
        throw new Error('库存不足');
      },
      onError,
    });
    queue.set(1, 9);
    await vi.advanceTimersByTimeAsync(600);
    expect(onError).toHaveBeenCalledWith(new Error('库存不足'));
  });
});
