// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { accessiblePrimary, contrast } from './color.ts';

const rgb = (hex: string): [number, number, number] => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

describe('accessiblePrimary (issue 17, item 17: contrast)', () => {
  it('keeps a brand colour that already reads', () => expect(accessiblePrimary('#c8102e')).toBe('#c8102e'));

  it.each([
    '#fa541c',
    '#1f6feb',
    '#e1251b',
    '#52c41a',
    '#faad14',
  ])('darkens %s to AA on white and grey', (hex) => {
    const shown = rgb(accessiblePrimary(hex));
    expect(contrast(shown, [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(shown, [240, 240, 240])).toBeGreaterThanOrEqual(4.5);
  });

  it('leaves what is not a hex colour alone', () => expect(accessiblePrimary('red')).toBe('red'));
});
