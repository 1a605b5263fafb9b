// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { balanceNote } from './balance.ts';

describe('balance at order submission (issue 17, item 12)', () => {
  it('enough points', () => expect(balanceNote(500, 500, ['ye'])).toEqual({ kind: 'enough' }));
  it('short on a points-only site: the order could not be paid', () =>
    expect(balanceNote(33_400, 10_000, ['ye'])).toEqual({ kind: 'short', short: 23_400 }));
  it('short where WeChat Pay is offered: the rest is paid by WeChat', () =>
    expect(balanceNote(33_400, 10_000, ['ye', 'wx_pc'])).toEqual({ kind: 'shortWechat', short: 23_400 }));
});
