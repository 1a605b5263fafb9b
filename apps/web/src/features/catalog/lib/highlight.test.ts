// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { highlightParts } from './highlight.ts';

describe('highlightParts', () => {
  it('cuts a name into plain and matched parts', () => {
    expect(
      highlightParts('华为 Mate 60 Pro 手机', [
        { start: 0, end: 2 },
        { start: 15, end: 17 },
      ]),
    ).toEqual([
      { text: '华为', isMatch: true },
      { text: ' Mate 60 Pro ', isMatch: false },
      { text: '手机', isMatch: true },
    ]);
  });

  it('returns the whole name as one plain part without ranges', () => {
    expect(highlightParts('三体 全三册', [])).toEqual([{ text: '三体 全三册', isMatch: false }]);
  });

  it('merges overlapping and touching ranges and sorts them', () => {
    expect(
      highlightParts('abcdefgh', [
        { start: 4, end: 6 },
        { start: 1, end: 3 },
        { start: 2, end: 4 },
      ]),
    ).toEqual([
      { text: 'a', isMatch: false },
      { text: 'bcdef', isMatch: true },
      { text: 'gh', isMatch: false },
    ]);
  });

  it('clamps ranges outside the name and drops empty ones, never losing a character', () => {
    const parts = highlightParts('耳机', [
      { start: -3, end: 1 },
      { start: 1, end: 99 },
      { start: 2, end: 2 },
    ]);
    expect(parts).toEqual([{ text: '耳机', isMatch: true }]);
    expect(
      highlightParts('苹果手机', [{ start: 3, end: 1 }])
        .map((p) => p.text)
        .join(''),
    ).toBe('苹果手机');
  });
});
