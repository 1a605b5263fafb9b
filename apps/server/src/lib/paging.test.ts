import { MAX_PAGE, PAGE_SIZE, pageLimitMessage } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { listPage } from './paging';

/** A stand-in for a drizzle select before its LIMIT: records the LIMIT and OFFSET it is given. */
function fakeQuery<Row>(rows: Row[]) {
  const seen: { limit?: number; offset?: number } = {};
  const query = {
    limit(limit: number) {
      seen.limit = limit;
      return {
        offset(offset: number) {
          seen.offset = offset;
          return Promise.resolve(rows);
        },
      };
    },
  };
  return { query, seen };
}

describe('listPage', () => {
  it('reads page 1 by default and answers the list, the total and the page', async () => {
    const { query, seen } = fakeQuery([{ id: 1 }, { id: 2 }]);
    const page = await listPage({ pageNum: undefined, rows: query, total: Promise.resolve([{ n: 12 }]) });
    expect(seen).toEqual({ limit: PAGE_SIZE, offset: 0 });
    expect(page).toEqual({ list: [{ id: 1 }, { id: 2 }], total: 12, pageNum: 1, pageSize: PAGE_SIZE });
    expect(Object.keys(page)).toEqual(['list', 'total', 'pageNum', 'pageSize']);
  });

  it('applies the offset of the page and presents the rows', async () => {
    const { query, seen } = fakeQuery([{ id: 21 }]);
    const page = await listPage({
      pageNum: 3,
      rows: query,
      total: Promise.resolve([{ n: 21 }]),
      present: async (rows) => rows.map((r) => `#${r.id}`),
    });
    expect(seen.offset).toBe(2 * PAGE_SIZE);
    expect(page.list).toEqual(['#21']);
  });

  it('takes a function of limit and offset for queries that are not one select', async () => {
    const asked: number[] = [];
    const page = await listPage({
      pageNum: 2,
      rows: async (limit, offset) => {
        asked.push(limit, offset);
        return ['a'];
      },
      total: Promise.resolve([{ n: 11 }]),
    });
    expect(asked).toEqual([PAGE_SIZE, PAGE_SIZE]);
    expect(page).toMatchObject({ list: ['a'], total: 11, pageNum: 2 });
  });

  it('answers a total of 0 when the count has no row', async () => {
    const { query } = fakeQuery<{ id: number }>([]);
    expect((await listPage({ pageNum: 1, rows: query, total: Promise.resolve([]) })).total).toBe(0);
  });

  it('refuses pages past MAX_PAGE before the query is limited (so before it runs)', async () => {
    const { query, seen } = fakeQuery([{ id: 1 }]);
    await expect(
      listPage({ pageNum: MAX_PAGE + 1, rows: query, total: Promise.resolve([{ n: 1 }]) }),
    ).rejects.toMatchObject({ message: pageLimitMessage });
    expect(seen).toEqual({});
  });
});
