import { adminApi } from '@sitemall/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageOf, rowsOf, whenListFails } from './api';

/** The server's answer to every call of a test. */
const answer = (envelope: object) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(envelope)),
  );

beforeEach(() => {
  const store = new Map<string, string>([['sitemall.admin.token', 't1']]);
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('pageOf', () => {
  it('gives ProTable the page of a list', async () => {
    answer({ code: 200, msg: '', data: { list: [{ id: 719 }], total: 1 } });
    expect(await pageOf(adminApi.sites, {})).toEqual({ data: [{ id: 719 }], total: 1, success: true });
  });

  it('says a refused list instead of leaving ProTable its empty text', async () => {
    const said: string[] = [];
    whenListFails((error) => said.push(error.message));
    answer({ code: 500, msg: '系统繁忙，请稍后再试', data: null });
    expect(await pageOf(adminApi.sites, {})).toMatchObject({ data: [], success: false });
    expect(said).toEqual(['系统繁忙，请稍后再试']);
  });
});

describe('pageOf, requests overtaken', () => {
  /** Answers each call when the test says, with the page it names. */
  function heldAnswers() {
    const held: ((envelope: object) => void)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            held.push((envelope) => resolve(Response.json(envelope)));
          }),
      ),
    );
    return held;
  }
  const page = (id: number) => ({ code: 200, msg: '', data: { list: [{ id }], total: 1 } });

  it('does not show a list answer a newer request of the same list overtook, whichever comes first', async () => {
    const held = heldAnswers();
    const said: string[] = [];
    whenListFails((error) => said.push(error.message));
    const first = pageOf(adminApi.members, { siteId: 719 });
    const searched = pageOf(adminApi.members, { siteId: 719, keyword: '13800000719' });
    const again = pageOf(adminApi.members, { siteId: 719, keyword: '13800000720' });
    held[2]?.(page(3));
    held[0]?.(page(1));
    held[1]?.({ code: 500, msg: '系统繁忙，请稍后再试', data: null });
    expect(await again).toEqual({ data: [{ id: 3 }], total: 1, success: true });
    expect(await first).toMatchObject({ data: [], success: false });
    expect(await searched).toMatchObject({ data: [], success: false });
    expect(said).toEqual([]);
  });

  it('keeps the lists of different endpoints apart', async () => {
    const held = heldAnswers();
    const members = pageOf(adminApi.members, { siteId: 719 });
    const sites = pageOf(adminApi.sites, {});
    held[1]?.(page(719));
    held[0]?.(page(1));
    expect(await members).toMatchObject({ data: [{ id: 1 }], success: true });
    expect(await sites).toMatchObject({ data: [{ id: 719 }], success: true });
  });
});

describe('rowsOf', () => {
  it("gives a select a list's rows, and none when refused", async () => {
    answer({ code: 200, msg: '', data: { list: [{ id: 1 }, { id: 2 }], total: 2 } });
    expect(await rowsOf(adminApi.sites, {})).toEqual([{ id: 1 }, { id: 2 }]);
    const said: string[] = [];
    whenListFails((error) => said.push(error.message));
    answer({ code: 500, msg: '系统繁忙，请稍后再试', data: null });
    expect(await rowsOf(adminApi.sites, {})).toEqual([]);
    expect(said).toEqual(['系统繁忙，请稍后再试']);
  });
});
