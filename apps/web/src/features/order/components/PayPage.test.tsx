import { orderApi, type PayOrderInfo } from '@sitemall/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../../api/request.ts';
import { Component as SelectPayWay } from '../../../routes/selectPayWay.tsx';
import { SESSION_KEYS, session } from '../../../site/storage.ts';
import { fakeServer, refuse } from '../../../test/fakeServer.ts';
import { logInMember } from '../../../test/fixtures.ts';
import { renderSitePage } from '../../../test/sitePage.tsx';

const PATH = '/selectPayWay?siteId=719&orderNo=T1';
const BOTH = [
  { code: 'wx_pc', name: '微信支付' },
  { code: 'ye', name: '积分支付' },
];

/** Order T1 of 31.00, to pay within half an hour; the site offers the ways of `paywayConf`. */
function payServer(paywayConf: string[], over: Partial<PayOrderInfo> = {}) {
  const info: PayOrderInfo = {
    orderNo: 'T1',
    status: 0,
    statusName: '待付款',
    orderType: 0,
    payAmount: 3100,
    balance: 10_000,
    payWays: BOTH,
    expireTime: new Date(Date.now() + 30 * 60_000).toISOString(),
    createTime: new Date().toISOString(),
    mixedPay: false,
    ...over,
  };
  return fakeServer(
    {
      [orderApi.payOrderInfo.path]: () => info,
      [orderApi.payOrder.path]: () => ({
        orderNo: 'T1',
        isPaid: true,
        status: 1,
        statusName: '待发货',
        payWay: 'ye',
        payAmount: 3100,
        balance: 6900,
      }),
    },
    { paywayConf },
  );
}

const way = (code: string) => screen.getByTestId(`payway-${code}`) as HTMLButtonElement;
const payButton = () => screen.getByTestId('pay-submit') as HTMLButtonElement;

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('pay page', () => {
  it('offers points first, switches to WeChat and back, and pays with points', async () => {
    const server = payServer(['ye', 'wx_pc']);
    renderSitePage(<SelectPayWay />, PATH);
    expect(await screen.findByTestId('pay-page')).toBeTruthy();
    expect(screen.getByTestId('pay-amount').textContent).toBe('31.00积分');
    expect(screen.getByTestId('pay-balance').textContent).toBe('可用余额 100.00积分');
    expect(screen.getByTestId('pay-countdown').textContent).toMatch(/请在 \d\d:\d\d 内完成支付/);
    expect(way('ye').getAttribute('aria-pressed')).toBe('true');
    expect(way('wx_pc').getAttribute('aria-pressed')).toBe('false');
    expect(payButton().textContent).toContain('31.00积分');

    fireEvent.click(way('wx_pc'));
    expect(way('wx_pc').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('pay-split').textContent).toBe('微信支付 ¥31.00');
    expect(payButton().textContent).toContain('¥31.00');

    fireEvent.click(way('ye'));
    expect(screen.queryByTestId('pay-split')).toBeNull();
    fireEvent.click(payButton());
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    expect(screen.getByTestId('elsewhere').textContent).toBe('/payresultvalid?siteId=719');
    expect(server.bodiesOf(orderApi.payOrder.path)).toEqual([
      { siteId: '719', orderNo: 'T1', payWay: 'ye', orderType: '0' },
    ]);
    // /payresultvalid shows the result of this order only (spec section 4).
    expect(session.get(SESSION_KEYS.payResult)).toBe('T1');
    expect(server.unanswered).toEqual([]);
  });

  it('offers only the ways the site allows, and refuses points the balance cannot cover', async () => {
    const server = payServer(['ye'], { balance: 1000 });
    renderSitePage(<SelectPayWay />, PATH);
    expect(await screen.findByTestId('pay-page')).toBeTruthy();
    expect(screen.queryByTestId('payway-wx_pc')).toBeNull();
    expect(screen.getByText('积分余额不足，无法使用积分支付')).toBeTruthy();
    expect(payButton().disabled).toBe(true);
    fireEvent.click(payButton());
    expect(server.bodiesOf(orderApi.payOrder.path)).toEqual([]);
  });

  it("shows when the order was placed on China's clock, whatever the browser's zone", async () => {
    // The suite runs in the machine's zone (UTC in CI): 16:30 UTC is 00:30 the next day in China.
    payServer(['ye'], { createTime: '2026-12-01T16:30:05.000Z' });
    renderSitePage(<SelectPayWay />, PATH);
    expect(await screen.findByTestId('pay-page')).toBeTruthy();
    expect(screen.getByTestId('pay-order-no').parentElement?.textContent).toContain(
      '下单时间：2026-12-02 00:30:05',
    );
  });

  it("shows the server's refusal of a payment and stays on the page", async () => {
    const server = payServer(['ye']);
    server.answer(orderApi.payOrder.path, () => refuse(500, '订单当前状态不可支付'));
    renderSitePage(<SelectPayWay />, PATH);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    fireEvent.click(payButton());
    expect(await screen.findByText('订单当前状态不可支付')).toBeTruthy();
    expect(screen.queryByTestId('elsewhere')).toBeNull();
    expect(session.get(SESSION_KEYS.payResult)).toBeNull();
  });
});
