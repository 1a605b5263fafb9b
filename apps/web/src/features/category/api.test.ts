// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { groupCategories } from './api.ts';

describe('groupCategories', () => {
  it('groups category rows by level in server order', () => {
    expect(
      groupCategories([
        { levelId: 2, levelName: '手机', id: 21, catName: '5G手机' },
        { levelId: 1, levelName: '家电', id: 11, catName: '冰箱' },
        { levelId: 2, levelName: '手机', id: 22, catName: '老人机' },
      ]),
    ).toEqual([
      {
        levelId: 2,
        levelName: '手机',
        categories: [
          { id: 21, catName: '5G手机' },
          { id: 22, catName: '老人机' },
        ],
      },
      { levelId: 1, levelName: '家电', categories: [{ id: 11, catName: '冰箱' }] },
    ]);
  });
});
