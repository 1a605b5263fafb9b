import { describe, expect, it } from 'vitest';
import { dayRangeColumn } from './format';

describe('dayRangeColumn', () => {
  it('is a date-range column whose search sends its own key as two days', () => {
    const column = dayRangeColumn('createTime');
    expect(column).toMatchObject({ dataIndex: 'createTime', valueType: 'dateRange' });
    expect(column.search.transform(['2026-03-01 10:20:30', '2026-03-31'])).toEqual({
      createTime: ['2026-03-01', '2026-03-31'],
    });
  });
});
