import { type LotteryRule, lotteryApi } from '@sitemall/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../api/request.ts';
import { fakeServer, refuse } from '../../test/fakeServer.ts';
import { logInMember } from '../../test/fixtures.ts';
import { renderSitePage } from '../../test/sitePage.tsx';
import { Turntable } from './Turntable.tsx';

const RULE: LotteryRule = {
  id: 1,
  code: 'cj001',
  type: 1,
  name: '幸运大转盘',
  invitedOnly: false,
  link: '/lottery?code=cj001',
  timing: { startTimeStamp: 0, endTimeStamp: 2e12, currentTime: Date.now(), status: 0 },
  ruleHtml: '<p>每天 3 次机会</p>',
  costPoints: 100,
  chances: 3,
  period: 'day',
  shareBonus: 1,
  prizes: [{ id: 1, name: '谢谢参与', kind: 'none', amount: 0, remaining: null }],
};

function lotteryServer(chance: () => unknown) {
  return fakeServer({
    [lotteryApi.rule.path]: () => RULE,
    [lotteryApi.chance.path]: chance,
    [lotteryApi.giftRecords.path]: () => ({ list: [] }),
  });
}

const spin = () => screen.getByTestId('lottery-spin') as HTMLButtonElement;

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('turntable chances', () => {
  it('reads 开始抽奖 while the chances load, never 次数已用完', async () => {
    let release: (chances: unknown) => void = () => {};
    const held = new Promise((resolve) => {
      release = resolve;
    });
    lotteryServer(() => held);
    renderSitePage(<Turntable />, '/lottery?siteId=719');
    await screen.findByTestId('lottery');
    expect(spin().textContent).toContain('开始抽奖');
    expect(spin().disabled).toBe(true);
    release({ granted: 3, used: 3, left: 0, shared: true });
    await waitFor(() => expect(spin().textContent).toContain('次数已用完'));
    expect(spin().disabled).toBe(true);
  });

  it('says a refused chance query and loads it again on demand', async () => {
    let fail = true;
    lotteryServer(() =>
      fail ? refuse(500, '系统繁忙，请稍后再试') : { granted: 3, used: 1, left: 2, shared: false },
    );
    renderSitePage(<Turntable />, '/lottery?siteId=719');
    const failed = await screen.findByTestId('lottery-chances-failed');
    expect(failed.textContent).toContain('抽奖次数加载失败');
    expect(failed.textContent).toContain('系统繁忙，请稍后再试');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /重新加载/ }));
    await waitFor(() => expect(spin().disabled).toBe(false));
    expect(screen.getByTestId('lottery-left').textContent).toBe('剩余抽奖次数：2');
  });
});
