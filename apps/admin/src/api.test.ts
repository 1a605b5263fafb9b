import { adminApi } from '@sitemall/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageOf, whenListFails } from './api';

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
