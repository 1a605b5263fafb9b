// @vitest-environment node
import type { WechatCode } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import {
  availablePoints,
  codeProblem,
  fenText,
  isCodeUsable,
  maxPointsPart,
  pointsPartError,
  splitSummary,
  yuanToFen,
} from './wechat.ts';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const code = (over: Partial<WechatCode> = {}): WechatCode => ({
  outTradeNo: 'T1',
  codeUrl: 'weixin://wxpay/bizpayurl?pr=abc',
  state: 'open',
  cashAmount: 5000,
  pointsAmount: 5000,
  expireTime: new Date(NOW + 60_000).toISOString(),
  ...over,
});

describe('mixed payment amounts', () => {
  it('holds at most the balance and leaves at least 1 fen to WeChat', () => {
    expect(maxPointsPart(3000, 10000)).toBe(3000);
    expect(maxPointsPart(50000, 10000)).toBe(9999);
    expect(maxPointsPart(0, 10000)).toBe(0);
    expect(maxPointsPart(500, 1)).toBe(0);
  });

  it('counts the points held by the open code as available to its order', () => {
    expect(availablePoints(1000, undefined)).toBe(1000);
    expect(availablePoints(1000, code())).toBe(6000);
    expect(availablePoints(1000, code({ state: 'closed' }))).toBe(1000);
  });

  it('reads yuan with two decimals as integer fen', () => {
    expect(yuanToFen(50)).toBe(5000);
    expect(yuanToFen(0.29)).toBe(29);
    expect(yuanToFen('12.34')).toBe(1234);
    expect(yuanToFen(null)).toBeNull();
    expect(yuanToFen('')).toBeNull();
    expect(yuanToFen('abc')).toBeNull();
  });

  it('validates the points part on the client', () => {
    expect(pointsPartError(null, 9999, '积分')).toBe('请输入积分抵扣数额');
    expect(pointsPartError(-1, 9999, '积分')).toBe('积分抵扣数额不能小于 0');
    expect(pointsPartError(10000, 9999, '积分')).toBe('最多可抵扣 99.99 积分');
    expect(pointsPartError(9999, 9999, '积分')).toBeNull();
    expect(pointsPartError(0, 9999, '积分')).toBeNull();
  });

  it('says how the amount is split', () => {
    expect(splitSummary({ pointsAmount: 5000, cashAmount: 5000 }, '积分')).toBe(
      '积分抵扣 50.00 积分 + 微信支付 ¥50.00',
    );
    expect(splitSummary({ pointsAmount: 0, cashAmount: 10001 }, '积分')).toBe('微信支付 ¥100.01');
    expect(splitSummary({ pointsAmount: 1, cashAmount: 1 }, '')).toBe('积分抵扣 0.01 + 微信支付 ¥0.01');
    expect(fenText(7)).toBe('0.07');
  });
});

describe('WeChat code state', () => {
  it('is usable while open and before its expiry', () => {
    expect(isCodeUsable(code(), NOW)).toBe(true);
    expect(isCodeUsable(code(), NOW + 60_000)).toBe(false);
    expect(isCodeUsable(code({ state: 'closed' }), NOW)).toBe(false);
    expect(isCodeUsable(code({ state: 'paid' }), NOW)).toBe(false);
  });

  it('explains an unusable code and whether a new one helps', () => {
    expect(codeProblem(code(), NOW)).toBeNull();
    expect(codeProblem(code({ state: 'paid' }), NOW)).toBeNull();
    expect(codeProblem(code(), NOW + 61_000)).toEqual({
      title: '二维码已过期',
      text: '二维码已过期，请刷新',
      canRefresh: true,
    });
    expect(codeProblem(code({ state: 'closed' }), NOW)?.text).toBe('二维码已过期，请刷新');
    expect(codeProblem(code({ state: 'failed' }), NOW)).toEqual({
      title: '支付失败',
      text: '支付失败，请重新获取二维码',
      canRefresh: true,
    });
    expect(codeProblem(code({ state: 'refunded' }), NOW)?.canRefresh).toBe(false);
  });
});
