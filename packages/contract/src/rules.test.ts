import { describe, expect, it } from 'vitest';
import { isMobile, isPlainHotline, isValidPassword } from './rules.ts';
import { sourceName } from './sources.ts';

describe('mobile phone (section 5): 11 digits starting with 1', () => {
  it.each([
    ['13800138000', true],
    ['19912345678', true],
    ['23800138000', false],
    ['1380013800', false],
    ['138001380001', false],
    ['1380013800a', false],
  ])('%s → %s', (phone, expected) => expect(isMobile(phone)).toBe(expected));
});

describe('hotline (section 5): digits, or 0 + 2-3 digits, optional dash, 7-8 digits', () => {
  it.each([
    ['95519', true],
    ['4008001000', true],
    ['010-62345678', true],
    ['0755-1234567', true],
    ['07551234567', true],
    ['400-819-0719', false],
    ['010-123456', false],
    ['+86 10 6234 5678', false],
    ['', false],
  ])('%s → %s', (hotline, expected) => expect(isPlainHotline(hotline)).toBe(expected));
});

describe('password (section 5): letters and digits, alphanumeric only, 6-20', () => {
  it.each([
    ['abc123', true],
    ['A1b2C3d4E5f6G7h8I9j0', true],
    ['abc12', false],
    ['A1b2C3d4E5f6G7h8I9j0k', false],
    ['abcdef', false],
    ['123456', false],
    ['abc 123', false],
    ['abc_123', false],
    ['密码abc123', false],
  ])('%s → %s', (password, expected) => expect(isValidPassword(password)).toBe(expected));
});

describe('source names (section 3)', () => {
  const supplyConfig = [{ source: 1, type: 1, excludeSupply: false, name: '汇通直供' }];
  it('uses the site name for a source when it has one, else the default', () => {
    expect(sourceName(supplyConfig, 1)).toEqual({ source: 1, name: '汇通直供', hasAddressTab: true });
    expect(sourceName(supplyConfig, 55)).toEqual({ source: 55, name: '商超', hasAddressTab: true });
  });
  it('knows virtual sources need no address tab', () => {
    expect(sourceName([], 26)?.hasAddressTab).toBe(false);
    expect(sourceName([], 20)?.name).toBe('电影');
  });
  it('answers nothing for an unknown source', () => {
    expect(sourceName([], 999)).toBeUndefined();
  });
});
