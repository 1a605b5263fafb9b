// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatHotline, maskPhone } from './phone.ts';

describe('maskPhone (issue 17, item 10)', () => {
  it('hides the middle four digits of a mobile number', () => {
    expect(maskPhone('13800000719')).toBe('138****0719');
  });
  it('leaves anything else alone', () => {
    expect(maskPhone('demo10110')).toBe('demo10110');
    expect(maskPhone('')).toBe('');
  });
});

describe('formatHotline (issue 17, item 10)', () => {
  it.each([
    ['4008001000', '400-800-1000'],
    ['8008101234', '800-810-1234'],
    ['13800000719', '138-0000-0719'],
    ['01062345678', '010-62345678'],
    ['057188886666', '0571-88886666'],
    ['400-819-0719', '400-819-0719'],
    ['010-62345678', '010-62345678'],
    ['95588', '95588'],
  ])('%s → %s', (raw, shown) => expect(formatHotline(raw)).toBe(shown));
});
