import { type PackOrder, type PackProduct, packsApi } from '@sitemall/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../api/request.ts';
import { fakeServer } from '../../test/fakeServer.ts';
import { logInMember } from '../../test/fixtures.ts';
import { renderSitePage } from '../../test/sitePage.tsx';
import { BuyPacks } from './BuyPacks.tsx';

const PATH = '/myCards?siteId=719';
const PACK: PackProduct = {
  id: 7,
  name: '100积分礼品卡',
  faceValue: 10_000,
  salePrice: 10_000,
  validityDays: 365,
};

/** The pack order P1 bought by WeChat: unpaid with its code, then `after` on each query. */
function unpaid(): PackOrder {
  return {
    orderNo: 'PK1',
    packId: 7,
    name: PACK.name,
    faceValue: 10_000,
    payAmount: 10_000,
    payWay: 'wx_pc',
    status: 'unpaid',
    statusName: '待支付',
    asGift: false,
    card: null,
    createTime: new Date().toISOString(),
    payTime: null,
    expireTime: new Date(Date.now() + 30 * 60_000).toISOString(),
    wechat: {
      outTradeNo: 'PK1W1',
      codeUrl: 'weixin://wxpay/bizpayurl?pr=test',
      state: 'open',
      cashAmount: 10_000,
      pointsAmount: 0,
      expireTime: new Date(Date.now() + 30 * 60_000).toISOString(),
    },
  };
}

function packServer(paywayConf: string[], queries: PackOrder[] = []) {
  return fakeServer(
    {
      [packsApi.list.path]: () => ({ list: [PACK] }),
      [packsApi.submitAndPay.path]: () => unpaid(),
      [packsApi.query.path]: () => queries.shift() ?? unpaid(),
    },
    { paywayConf },
  );
}

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('buying packs', () => {
  it('offers WeChat only where the site names wx_pc', async () => {
    packServer(['ye']);
    renderSitePage(<BuyPacks />, PATH);
    expect(await screen.findByTestId('pack-buy')).toBeTruthy();
    expect(screen.queryByTestId('pack-buy-wechat')).toBeNull();
  });

  it('shows the QR code of a WeChat purchase and closes it when the order is paid', async () => {
    const paid: PackOrder = {
      ...unpaid(),
      status: 'paid',
      statusName: '已支付',
      payTime: new Date().toISOString(),
    };
    paid.wechat = { ...(unpaid().wechat as NonNullable<PackOrder['wechat']>), state: 'paid' };
    const server = packServer(['ye', 'wx_pc'], [unpaid(), paid]);
    renderSitePage(<BuyPacks />, PATH);
    fireEvent.click(await screen.findByTestId('pack-buy-wechat'));
    expect(await screen.findByTestId('wechat-panel')).toBeTruthy();
    expect(screen.getByTestId('wechat-cash').textContent).toBe('¥100.00');
    expect(server.bodiesOf(packsApi.submitAndPay.path)).toEqual([
      expect.objectContaining({ siteId: '719', packId: '7', payWay: 'wx_pc', asGift: 'false' }),
    ]);
    await waitFor(() => expect(screen.queryByTestId('wechat-panel')).toBeNull(), { timeout: 8000 });
    expect(await screen.findByText('支付成功：100积分礼品卡 已放入我的卡包')).toBeTruthy();
  }, 15_000);
});
