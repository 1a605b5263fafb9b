// @vitest-environment node
import { BATCH_MAX_BYTES, type BatchGroup } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { groupStates, uploadRefusal } from './lib.ts';

const group = (groupNo: number, totalAmount: number, isValid = true): BatchGroup => ({
  groupNo,
  consignee: '张三',
  phone: '13900000000',
  address: '北京市',
  rowNos: [groupNo],
  lineCount: 1,
  goodsAmount: totalAmount,
  freightAmount: 0,
  totalAmount,
  isValid,
});

describe('batch preview order states (issue 17, item 12)', () => {
  it('marks an order whose total exceeds the balance 余额不足, not 可提交', () => {
    expect(groupStates([group(1, 50_000)], 10_000).get(1)).toBe('short');
  });

  it('pays orders in turn from the balance', () => {
    const states = groupStates(
      [group(1, 6_000), group(2, 500, false), group(3, 5_000), group(4, 100)],
      10_000,
    );
    expect([...states.values()]).toEqual(['ok', 'error', 'short', 'short']);
  });

  it('all covered: every order is 可提交', () => {
    expect([...groupStates([group(1, 3_000), group(2, 7_000)], 10_000).values()]).toEqual(['ok', 'ok']);
  });
});

describe('batch upload', () => {
  it('sends a sheet of up to 1 MB for checking and refuses a larger one', () => {
    expect(uploadRefusal({ size: BATCH_MAX_BYTES })).toBe('');
    expect(uploadRefusal({ size: BATCH_MAX_BYTES + 1 })).toBe('文件不能超过 1 MB');
  });
});
