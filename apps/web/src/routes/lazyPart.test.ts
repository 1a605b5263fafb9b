// @vitest-environment node
import { PART_LOAD_TIMEOUT_MS } from '@sitemall/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPart } from './lazyPart.ts';

afterEach(() => vi.useRealTimers());

describe('lazyPart', () => {
  it('resolves with the module when it loads in time', async () => {
    await expect(lazyPart('home', async () => ({ Component: 'x' }))()).resolves.toEqual({ Component: 'x' });
  });

  it('fails naming the part after 120000 ms', async () => {
    vi.useFakeTimers();
    const load = lazyPart('shoppingCart', () => new Promise<never>(() => {}));
    const result = load();
    const check = expect(result).rejects.toThrow('页面模块加载超时：shoppingCart');
    await vi.advanceTimersByTimeAsync(PART_LOAD_TIMEOUT_MS - 1);
    let settled = false;
    result
      .catch(() => {})
      .finally(() => {
        settled = true;
      });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await check;
  });

  it('passes a load failure through', async () => {
    await expect(lazyPart('x', () => Promise.reject(new Error('chunk failed')))()).rejects.toThrow(
      'chunk failed',
    );
  });
});
