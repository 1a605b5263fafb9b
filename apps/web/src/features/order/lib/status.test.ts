// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { orderStatusView } from './status.ts';

const PAID = '2026-01-01T08:00:00.000Z';

describe('orderStatusView (issue 17, item 4)', () => {
  it('a pending order shows 应付', () => {
    expect(orderStatusView({ status: 0, statusName: '待付款', payTime: null })).toEqual({
      label: '待付款',
      reason: null,
      amountLabel: '应付',
    });
  });

  it('an unpaid order the member cancelled reads 已取消 with 应付, never 实付款', () => {
    expect(orderStatusView({ status: 4, statusName: '订单已撤回', payTime: null })).toEqual({
      label: '已取消',
      reason: '您已取消该订单',
      amountLabel: '应付',
    });
  });

  it('a paid order the merchant withdrew keeps 订单已撤回 and 实付款', () => {
    expect(orderStatusView({ status: 4, statusName: '订单已撤回', payTime: PAID })).toEqual({
      label: '订单已撤回',
      reason: '商家已撤回该订单，已付款项原路退回',
      amountLabel: '实付款',
    });
  });

  it('an expired order says why', () => {
    expect(orderStatusView({ status: 41, statusName: '已过期取消', payTime: null }).reason).toBe(
      '超时未支付，订单已自动取消',
    );
  });

  it('a paid order shows 实付款', () => {
    expect(orderStatusView({ status: 24, statusName: '确认中', payTime: PAID }).amountLabel).toBe('实付款');
  });
});
