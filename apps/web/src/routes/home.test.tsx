import { catalogApi, type ProductCard } from '@sitemall/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../api/request.ts';
import { fakeServer } from '../test/fakeServer.ts';
import { renderSitePage } from '../test/sitePage.tsx';
import { Component as Home } from './home.tsx';

afterEach(() => {
  cleanup();
  resetRequest();
});

const product = (id: number): ProductCard => ({
  id,
  name: `商品 ${id}`,
  brand: '',
  image: `/img/${id}.jpg`,
  price: 1000,
  marketPrice: 0,
  sales: 0,
  hasStock: true,
  orderType: 1,
  source: { source: 1, type: 1, name: '京东', hasAddressTab: true },
  specificationId: id,
});

const floors = {
  floors: [
    { lableId: 1, lableName: '数码家电', list: [1, 2, 3, 4, 5, 6].map(product) },
    { lableId: 2, lableName: '食品酒水', list: [7, 8].map(product) },
  ],
};
const notice = {
  id: 3,
  title: '系统升级公告',
  content: '<p>今晚升级</p>',
  startTime: '2026-12-01T00:00:00.000Z',
  endTime: '2026-12-31T00:00:00.000Z',
};

/** The home page's answers, with the PC notice held until `release` is called. */
function homeServer() {
  let release: () => void = () => {};
  const noticeKnown = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = fakeServer({
    [catalogApi.clientTips.path]: async () => {
      await noticeKnown;
      return { notice };
    },
    [catalogApi.homeProductList.path]: () => floors,
    [catalogApi.guessLike.path]: () => ({ list: [] }),
    [catalogApi.lableList.path]: () => ({ mallCateLables: [] }),
  });
  return { server, release };
}

describe('home page', () => {
  it('draws nothing until its PC notice is known, so that the notice never pushes a drawn page down', async () => {
    const { server, release } = homeServer();
    renderSitePage(<Home />, '/home?siteId=719');
    // The floors are asked for at once, beside the notice, not after it.
    await waitFor(() => expect(server.bodiesOf(catalogApi.homeProductList.path)).toHaveLength(1));
    expect(screen.queryByTestId('home-floor')).toBeNull();
    expect(document.querySelector('.home-hero')).toBeNull();

    release();
    const bar = await screen.findByTestId('client-tips');
    expect(bar.textContent).toContain('系统升级公告');
    const hero = document.querySelector('.home-hero');
    // The notice comes first in the page, above the banner.
    expect(hero && bar.compareDocumentPosition(hero) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await screen.findAllByTestId('home-floor')).toHaveLength(2);
  });

  it("loads the first floor's first row of pictures at once and the others when scrolled to", async () => {
    const { release } = homeServer();
    release();
    renderSitePage(<Home />, '/home?siteId=719');
    const [first, second] = await screen.findAllByTestId('home-floor');
    const loading = (floor: HTMLElement | undefined) =>
      [...(floor?.querySelectorAll('.product-tile__image img') ?? [])].map((img) =>
        img.getAttribute('loading'),
      );
    // A floor beside its category links shows 4 tiles a row.
    expect(loading(first)).toEqual(['eager', 'eager', 'eager', 'eager', 'lazy', 'lazy']);
    expect(loading(second)).toEqual(['lazy', 'lazy']);
    expect(first?.querySelector('.product-tile__image img')?.getAttribute('fetchpriority')).toBe('high');
  });
});
