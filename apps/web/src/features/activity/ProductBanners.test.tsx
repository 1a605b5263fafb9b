import { type GroupActivity, groupApi, type SeckillProduct, seckillApi } from '@sitemall/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../api/request.ts';
import { fakeServer } from '../../test/fakeServer.ts';
import { renderSitePage } from '../../test/sitePage.tsx';
import { ProductFlashSale, ProductGroupBuy } from './ProductBanners.tsx';

const HOUR = 3_600_000;
const running = (now = Date.now()) => ({
  startTimeStamp: now - HOUR,
  endTimeStamp: now + HOUR,
  currentTime: now,
  status: 0,
});

const SALE: SeckillProduct = {
  activityId: 3,
  productId: 24,
  specificationId: 240,
  name: '手机支架',
  image: '',
  price: 990,
  marketPrice: 3900,
  stock: 10,
  totalStock: 10,
  memberLimit: 1,
  orderLimit: 1,
  bought: 0,
  timing: running(),
};

const group = (id: number, productId: number, timing = running()): GroupActivity => ({
  id,
  name: '两人拼团',
  productId,
  specificationId: productId * 10,
  productName: '手机支架',
  image: '',
  price: 1990,
  marketPrice: 3900,
  teamSize: 2,
  teamHours: 24,
  memberLimit: 1,
  virtualFill: false,
  timing,
});

afterEach(() => {
  cleanup();
  resetRequest();
});

describe('the product page banners', () => {
  it("show the product's running flash sale with its price and a way to the sale", async () => {
    fakeServer({ [seckillApi.activityTime.path]: () => SALE });
    renderSitePage(<ProductFlashSale productId={24} />, '/productDetails?siteId=719&id=24');
    const banner = await screen.findByTestId('product-flash');
    expect(banner.textContent).toContain('限时秒杀');
    expect(banner.textContent).toContain('9.90');
    expect(banner.textContent).toMatch(/距结束 \d{2}:\d{2}:\d{2}/);
    fireEvent.click(screen.getByRole('link', { name: /去抢购/ }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/seckill?siteId=719');
  });

  it("show the product's running group buy, not another product's or an ended one", async () => {
    const now = Date.now();
    fakeServer({
      [groupApi.detail.path]: () => ({
        currentTime: now,
        activities: [
          group(7, 25),
          group(8, 24, {
            startTimeStamp: now - 2 * HOUR,
            endTimeStamp: now - HOUR,
            currentTime: now,
            status: 1,
          }),
          group(9, 24),
        ],
        teams: [],
      }),
    });
    renderSitePage(<ProductGroupBuy productId={24} />, '/productDetails?siteId=719&id=24');
    const banner = await screen.findByTestId('product-group');
    expect(banner.textContent).toContain('2 人拼团');
    expect(banner.textContent).toContain('19.90');
    expect(banner.textContent).toContain('24 小时内成团');
    fireEvent.click(screen.getByRole('link', { name: /去拼团/ }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/groupBuy?id=9&siteId=719');
  });

  it('show nothing when the product has no activity', async () => {
    const server = fakeServer({
      [seckillApi.activityTime.path]: () => null,
      [groupApi.detail.path]: () => ({ currentTime: Date.now(), activities: [group(7, 25)], teams: [] }),
    });
    renderSitePage(
      <>
        <ProductFlashSale productId={24} />
        <ProductGroupBuy productId={24} />
        <p data-testid="page">商品</p>
      </>,
      '/productDetails?siteId=719&id=24',
    );
    await screen.findByTestId('page');
    await expect.poll(() => server.bodiesOf(groupApi.detail.path).length).toBe(1);
    await expect.poll(() => server.bodiesOf(seckillApi.activityTime.path).length).toBe(1);
    expect(screen.queryByTestId('product-flash')).toBeNull();
    expect(screen.queryByTestId('product-group')).toBeNull();
    expect(server.unanswered).toEqual([]);
  });
});
