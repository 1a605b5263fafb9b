import {
  type Address,
  addressApi,
  cartApi,
  orderApi,
  pointsApi,
  promiseApi,
  voucherApi,
} from '@sitemall/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../../api/request.ts';
import { Component as OrderSubmissionRoute } from '../../../routes/orderSubmission.tsx';
import { fakeServer, refuse } from '../../../test/fakeServer.ts';
import { address, cartAnswer, cartLine, logInMember } from '../../../test/fixtures.ts';
import { renderSitePage } from '../../../test/sitePage.tsx';

const PATH = '/orderSubmission?siteId=719&cartIds=1,2';

/** Two selected lines (20.00 + 5.00), a 6.00 freight, a balance of 100.00; submit makes T1. */
function checkoutServer(addresses: Address[]) {
  return fakeServer({
    [cartApi.getCartProduct.path]: () =>
      cartAnswer([cartLine(1, { num: 2 }), cartLine(2, { price: 500 }), cartLine(3)]),
    [addressApi.list.path]: () => ({ list: addresses }),
    [pointsApi.balance.path]: () => ({ balance: 10_000 }),
    // No voucher applies: the total is the goods plus the freight.
    [voucherApi.available.path]: () => ({ list: [], best: [], chosen: [], saving: 0, lines: [] }),
    // The promise calendar: source 1 delivers in two to three days.
    [promiseApi.calendar.path]: () => [
      {
        source: 1,
        sourceName: '自营',
        provinceCode: '',
        isInstant: false,
        earliest: '2030-01-03',
        latest: '2030-01-04',
        text: '预计 1月3日-1月4日 送达',
      },
    ],
    [orderApi.getFare.path]: () => ({
      totalFare: 600,
      goodsAmount: 2500,
      list: [{ source: 1, sourceName: '自营', goodsAmount: 2500, fare: 600 }],
    }),
    [orderApi.submitOrder.path]: () => ({
      orderNo: 'T1',
      childOrderNo: ['T1-1'],
      payAmount: 3100,
      status: 0,
      expireTime: '2030-01-01T00:30:00.000Z',
      msg: '',
    }),
  });
}

const submitButton = () => screen.getByTestId('submit-order') as HTMLButtonElement;

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('order submission', () => {
  it('without a delivery address asks for one, computes no freight and cannot submit', async () => {
    const server = checkoutServer([]);
    renderSitePage(<OrderSubmissionRoute />, PATH);
    expect(await screen.findByText('还没有收货地址，请先新增一个。')).toBeTruthy();
    expect(screen.getAllByTestId('checkout-line')).toHaveLength(2);
    expect(screen.getByTestId('checkout-freight').textContent).toBe('选择地址后计算');
    expect(submitButton().disabled).toBe(true);
    fireEvent.click(submitButton());
    expect(server.bodiesOf(orderApi.getFare.path)).toEqual([]);
    expect(server.bodiesOf(orderApi.submitOrder.path)).toEqual([]);
  });

  it('with the default address shows freight and total, submits once and goes to payment', async () => {
    const server = checkoutServer([address(7)]);
    renderSitePage(<OrderSubmissionRoute />, PATH);
    await waitFor(() => expect(screen.getByTestId('checkout-total').textContent).toBe('31.00积分'));
    expect(screen.getByTestId('checkout-freight').textContent).toBe('6.00积分');
    expect(screen.getByText(/寄送至：江苏省 南京市 玄武区 中山路1号/)).toBeTruthy();
    expect(server.bodiesOf(orderApi.getFare.path).at(-1)).toEqual({
      siteId: '719',
      cartIds: '1,2',
      addressId: '7',
    });

    fireEvent.change(screen.getByPlaceholderText('选填，给商家留言'), { target: { value: ' 请尽快发货 ' } });
    fireEvent.click(submitButton());
    fireEvent.click(submitButton());
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    expect(screen.getByTestId('elsewhere').textContent).toBe('/selectPayWay?orderNo=T1&siteId=719');
    const submitted = server.bodiesOf(orderApi.submitOrder.path);
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      siteId: '719',
      cartIds: '1,2',
      addressId: '7',
      remark: '请尽快发货',
    });
    expect(submitted[0]?.requestId).toEqual(expect.any(String));
    expect(server.unanswered).toEqual([]);
  });

  it("shows the server's refusal and lets the member try again with the same request id", async () => {
    const server = checkoutServer([address(7)]);
    server.answer(orderApi.submitOrder.path, () => refuse(500, '库存不足，仅剩 1 件'));
    renderSitePage(<OrderSubmissionRoute />, PATH);
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(submitButton());
    expect(await screen.findByText('库存不足，仅剩 1 件')).toBeTruthy();
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(submitButton());
    await waitFor(() => expect(server.bodiesOf(orderApi.submitOrder.path)).toHaveLength(2));
    const [first, second] = server.bodiesOf(orderApi.submitOrder.path);
    expect(second?.requestId).toBe(first?.requestId);
    expect(screen.queryByTestId('elsewhere')).toBeNull();
  });
});
