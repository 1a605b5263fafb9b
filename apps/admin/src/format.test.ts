import { describe, expect, it } from 'vitest';
import { day, dayRangeColumn, instantOf, pickerOf, time } from './format';

describe('dayRangeColumn', () => {
  it('is a date-range column whose search sends its own key as two days', () => {
    const column = dayRangeColumn('createTime');
    expect(column).toMatchObject({ dataIndex: 'createTime', valueType: 'dateRange' });
    expect(column.search.transform(['2026-03-01 10:20:30', '2026-03-31'])).toEqual({
      createTime: ['2026-03-01', '2026-03-31'],
    });
  });
});

describe('console times', () => {
  // The suite runs in the machine's zone (UTC in CI); what an operator reads is China time.
  it('shows instants on China’s wall clock', () => {
    expect(time('2026-12-01T16:30:05Z')).toBe('2026-12-02 00:30:05');
    expect(time(Date.UTC(2026, 11, 1, 16, 30), 'MM-DD HH:mm')).toBe('12-02 00:30');
    expect(day('2026-12-01T16:30:05Z')).toBe('2026-12-02');
    expect(time(null)).toBe('-');
  });

  it('puts China’s wall clock in pickers and reads a picked time as China time', () => {
    expect(pickerOf('2026-12-01T16:30:05Z').format('YYYY-MM-DD HH:mm:ss')).toBe('2026-12-02 00:30:05');
    expect(instantOf('2026-12-02 00:30:05').toISOString()).toBe('2026-12-01T16:30:05.000Z');
    expect(instantOf(pickerOf('2026-06-15T01:00:00Z')).toISOString()).toBe('2026-06-15T01:00:00.000Z');
  });
});
