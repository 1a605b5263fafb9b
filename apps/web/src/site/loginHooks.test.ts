// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { onLoggedIn, runLoginHooks } from './loginHooks.ts';

describe('login hooks', () => {
  it('runs every registered hook with the site and waits for them; a failing hook does not block', async () => {
    const order: string[] = [];
    const offA = onLoggedIn(async ({ siteId }) => {
      await new Promise((r) => setTimeout(r, 5));
      order.push(`merge ${siteId}`);
    });
    const offB = onLoggedIn(() => {
      throw new Error('boom');
    });
    await expect(runLoginHooks({ siteId: '719' })).resolves.toBeUndefined();
    expect(order).toEqual(['merge 719']);
    offA();
    offB();
    const spy = vi.fn();
    await runLoginHooks({ siteId: '1' });
    expect(spy).not.toHaveBeenCalled();
    expect(order).toHaveLength(1);
  });
});
