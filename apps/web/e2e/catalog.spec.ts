import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  catalogApi,
  type HomeProductList,
  PAGE_SIZE,
  type ProductDetail,
  type SearchResult,
  type SiteConfig,
  type SpecialList,
} from '@sitemall/contract';
import { imageCodeOnPage, SITES, siteConfig } from './site.ts';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

/** Reads a catalogue answer from the real API, so the test checks what the server says. */
async function api<T>(request: APIRequestContext, path: string, data: Record<string, unknown>): Promise<T> {
  const answer = await request.post(`/front-mall-api${path}`, { data });
  const body = (await answer.json()) as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

/** What the page shows for fen: two decimals and the site's cashUnit (spec section 9). */
const money = (fen: number, site: SiteConfig) =>
  `${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${site.mallSite.cashUnit}`;

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Lazy tile images: scroll through once so a full-page screenshot shows them.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
}

for (const siteId of SITES) {
  test(`home of site ${siteId} shows product floors with its own source naming`, async ({
    page,
    request,
  }) => {
    const site = await siteConfig(request, siteId);
    const home = await api<HomeProductList>(request, catalogApi.homeProductList.path, { siteId });
    const floors = home.floors.filter((f) => f.list.length > 0);
    expect(floors.length).toBeGreaterThan(0);

    await page.goto(`home?siteId=${siteId}`);
    await expect(page.getByTestId('home-floor')).toHaveCount(floors.length);
    const first = floors[0]!;
    const floor = page.getByTestId('home-floor').first();
    await expect(floor.getByRole('heading', { name: first.lableName })).toBeVisible();
    const tile = floor.getByTestId('product-tile').first();
    const product = first.list[0]!;
    await expect(tile).toContainText(product.name);
    await expect(tile).toContainText(money(product.price, site));
    await expect(tile.getByTestId('source-name')).toHaveText(product.source.name);
    await expect(tile.getByRole('link').first()).toHaveAttribute(
      'href',
      `/shoppingmall/productDetails?id=${product.id}&siteId=${siteId}`,
    );
    // The site's own names for its supply sources (supplyConfig) are what the tiles show.
    const shownSources = new Set(home.floors.flatMap((f) => f.list.map((p) => p.source.name)));
    for (const name of shownSources)
      await expect(page.getByTestId('source-name').filter({ hasText: name }).first()).toBeVisible();
    await expect(page.getByTestId('guess-like').getByTestId('product-tile').first()).toBeVisible();

    await settle(page);
    await page.screenshot({ path: `${screenshots}catalog-home-${siteId}.png`, fullPage: true });
  });
}

test('browse home → category → product detail, and a specification changes price and stock', async ({
  page,
  request,
}) => {
  const siteId = 719;
  const site = await siteConfig(request, siteId);
  await page.goto(`home?siteId=${siteId}`);

  // The category menu beside the banner: a label, then a category of one of its groups.
  const menu = page.locator('.category-menu--home');
  await menu.getByText('数码家电').hover();
  await menu.locator('.category-menu__panel').getByRole('link', { name: '手机配件', exact: true }).click();
  await expect(page).toHaveURL(/\/searchList\?.*cateId=\d+/);
  await expect(page.locator('.page-breadcrumb')).toContainText('手机配件');
  const tiles = page.getByTestId('product-tile');
  await expect(tiles.first()).toBeVisible();

  await tiles.filter({ hasText: '数据线' }).first().getByRole('link').last().click();
  await expect(page).toHaveURL(/\/productDetails\?id=\d+/);
  const productId = Number(new URL(page.url()).searchParams.get('id'));
  const detail = await api<ProductDetail>(request, catalogApi.productDetail.path, { siteId, productId });
  const view = page.getByTestId('product-detail');
  await expect(view.getByRole('heading', { name: detail.name })).toBeVisible();
  await expect(view.getByTestId('detail-source')).toHaveText(detail.source.name);
  await expect(page.locator('.page-breadcrumb')).toContainText('首页');

  // Two specifications with different prices: choosing one shows its own price and stock.
  const specs = detail.productSpecifications.filter((s) => s.hasStock);
  const [a, b] = [specs[0]!, specs.find((s) => s.price !== specs[0]!.price)!];
  expect(b, 'the demo product has specifications with different prices').toBeTruthy();
  await view.getByRole('button', { name: a.specificationValue, exact: true }).click();
  await expect(view.getByTestId('detail-price')).toHaveText(money(a.price, site));
  await view.getByRole('button', { name: b.specificationValue, exact: true }).click();
  await expect(view.getByRole('button', { name: b.specificationValue, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(view.getByTestId('detail-price')).toHaveText(money(b.price, site));
  const limit =
    detail.limitNum > 0 && detail.limitNum < b.stock
      ? `每单限购 ${detail.limitNum} 件`
      : `库存 ${b.stock} 件`;
  await expect(view.getByTestId('detail-stock')).toHaveText(limit);

  // Quantity: never above min(stock, purchase limit), never below 1.
  const quantity = view.getByLabel('购买数量');
  await quantity.fill('99999');
  await quantity.blur();
  const max = detail.limitNum > 0 ? Math.min(b.stock, detail.limitNum) : b.stock;
  await expect(quantity).toHaveValue(String(max));
  await quantity.fill('0');
  await quantity.blur();
  await expect(quantity).toHaveValue('1');

  // Site 719 keeps a visitor's cart on the device (guest cart; e2e/order.spec.ts covers the rest).
  await view.getByRole('button', { name: '加入购物车' }).click();
  await expect(page.getByText('加入购物车成功')).toBeVisible();

  await settle(page);
  await page.screenshot({ path: `${screenshots}catalog-product-detail.png`, fullPage: true });
});

test('search by a Chinese word highlights matches; sorts, filters and pages', async ({ page }) => {
  await page.goto('home?siteId=719');
  await page.getByLabel('搜索商品').fill('耳机');
  await page.getByRole('button', { name: '搜索' }).click();
  await expect(page).toHaveURL(/\/searchList\?.*itemName=%E8%80%B3%E6%9C%BA/);
  await expect(page.locator('.page-breadcrumb')).toContainText('耳机');
  const tiles = page.getByTestId('product-tile');
  await expect(tiles.first()).toBeVisible();
  await expect(tiles.first().locator('em.search-hit').first()).toHaveText(/耳/);
  const total = Number(await page.getByTestId('search-total').textContent());
  expect(total).toBeGreaterThan(0);

  // Sort by price, cheapest first: the prices shown ascend.
  await page.getByRole('button', { name: '价格' }).click();
  await expect(page).toHaveURL(/sortField=price/);
  await expect(page.getByRole('button', { name: '价格' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  // Until the sorted page replaces the previous one (placeholder data), poll.
  const shownPrices = async () =>
    (await page.locator('.product-tile__price strong').allTextContents()).map((t) =>
      Number.parseFloat(t.replace(/,/g, '')),
    );
  await expect
    .poll(async () => {
      const prices = await shownPrices();
      return prices.every((p, i) => i === 0 || prices[i - 1]! <= p);
    })
    .toBe(true);

  // A price range narrows the results.
  await page.getByLabel('最低价').fill('1000');
  await page.getByRole('button', { name: /^确\s*定$/ }).click();
  await expect(page).toHaveURL(/minPrice=1000/);
  // The unfiltered page stays on screen until the filtered one replaces it: poll, as for the sort.
  await expect
    .poll(async () => {
      const prices = await shownPrices();
      return prices.length > 0 && prices.every((p) => p >= 1000);
    })
    .toBe(true);
  await settle(page);
  await page.screenshot({ path: `${screenshots}catalog-search.png`, fullPage: true });
});

test('search by a partial word still finds the product', async ({ page }) => {
  await page.goto('searchList?siteId=719&itemName=iPho&breadTxt=iPho');
  const tiles = page.getByTestId('product-tile');
  await expect(tiles.first()).toContainText('iPhone');
  await expect(tiles.first().locator('em.search-hit').first()).toHaveText(/iPho/i);
  // A partial Chinese word: two characters of a longer name.
  await page.goto('searchList?siteId=719&itemName=%E9%99%8D%E5%99%AA&breadTxt=x');
  await expect(tiles.first()).toContainText('降噪');
});

test('a search without results offers the server suggestions', async ({ page }) => {
  await page.goto('searchList?siteId=719&itemName=qqxxzzkk&breadTxt=qqxxzzkk');
  const empty = page.getByTestId('search-empty');
  await expect(empty).toContainText('没有找到与“qqxxzzkk”相关的商品');
  await expect(empty.getByTestId('product-tile').first()).toBeVisible();
});

test('search results page through: the pager under them counts them and opens the next page', async ({
  page,
  request,
}) => {
  // A word of the demo catalogue with more than one page of results on site 719.
  let found: { itemName: string; result: SearchResult } | undefined;
  for (const itemName of ['手机', '耳机', '礼盒', '坚果']) {
    const result = await api<SearchResult>(request, catalogApi.search.path, { siteId: 719, itemName });
    if (result.total > PAGE_SIZE) {
      found = { itemName, result };
      break;
    }
  }
  if (!found) throw new Error('no demo word has more than one page of results');
  const { itemName, result } = found;
  const second = await api<SearchResult>(request, catalogApi.search.path, {
    siteId: 719,
    itemName,
    pageNum: 2,
  });

  await page.goto(`searchList?siteId=719&itemName=${encodeURIComponent(itemName)}&breadTxt=x`);
  const tiles = page.getByTestId('product-tile');
  await expect(tiles.first()).toContainText(result.list[0]!.name);
  // The pager (antd's, loaded after the results) counts every match and pages them by ten.
  const pager = page.locator('.catalog-pagination');
  await expect(pager).toContainText(`共 ${result.total} 件`);
  await pager.getByTitle('2', { exact: true }).click();
  await expect(page).toHaveURL(/pageNum=2/);
  await expect(tiles.first()).toContainText(second.list[0]!.name);
  await expect(tiles).toHaveCount(second.list.length);
});

test('a special list shows the products of a type-1 advert under its breadcrumb', async ({
  page,
  request,
}) => {
  const siteId = 719;
  const site = await siteConfig(request, siteId);
  const menu = site.mallSite.homePageModes.find((m) => m.templateName === 'home-menu-template');
  const ads = (typeof menu?.value === 'string' ? JSON.parse(menu.value) : menu?.value) as {
    id: number;
    type: number;
    title: string;
  }[];
  const ad = ads.find((a) => a.type === 1)!;
  const special = await api<SpecialList>(request, catalogApi.specialList.path, { siteId, advertId: ad.id });

  await page.goto(`home?siteId=${siteId}`);
  await page.locator('.navbar__ads').getByRole('link', { name: ad.title }).click();
  await expect(page).toHaveURL(new RegExp(`/specialList\\?advertId=${ad.id}`));
  await expect(page.locator('.page-breadcrumb')).toHaveText(`首页/${ad.title}`);
  const list = page.getByTestId('special-list');
  await expect(list.getByRole('heading', { name: special.advert.title || ad.title })).toBeVisible();
  await expect(list.getByTestId('product-tile')).toHaveCount(special.list.length);
  await expect(list.getByTestId('product-tile').first()).toContainText(special.list[0]!.name);
  await settle(page);
  await page.screenshot({ path: `${screenshots}catalog-special.png`, fullPage: true });
});

/** A 1×1 PNG, built in memory. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

test('a merchant application is checked, uploaded, submitted and shows its status', async ({
  page,
  request,
}) => {
  await page.goto('businessSettlement?siteId=10110');
  await expect(page.locator('.page-breadcrumb')).toContainText('商家入驻');
  const form = page.locator('.merchant__form');

  // Client-side checks first.
  await form.getByRole('button', { name: '提交申请' }).click();
  await expect(form.getByText('请输入企业名称')).toBeVisible();
  await expect(form.getByText('请上传营业执照')).toBeVisible();
  await form.getByLabel('手机号码').fill('12345');
  await form.getByLabel('手机号码').blur();
  await expect(form.getByText('请输入 11 位手机号码')).toBeVisible();
  // A file of the wrong type is refused before upload.
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'licence.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByText('营业执照仅支持 PNG、JPG、WebP 格式的图片')).toBeVisible();

  const phone = `139${String(Date.now()).slice(-8)}`;
  await form.getByLabel('企业名称').fill('杭州示例网络科技有限公司');
  await form.getByLabel('统一社会信用代码').fill('91330100MA2B3C4D5E');
  await form.getByLabel('店铺名称').fill('示例数码专营店');
  await form.getByLabel('主营类目').fill('数码家电');
  await form.getByLabel('联系人').fill('张三');
  await form.getByLabel('手机号码').fill(phone);
  await form.getByLabel('店铺简介').fill('主营手机配件与智能穿戴，正品保障。');
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.locator('.ant-upload-list-item-done')).toHaveCount(1);
  await page.screenshot({ path: `${screenshots}catalog-merchant-form.png`, fullPage: true });

  await form.getByRole('button', { name: '提交申请' }).click();
  const result = page.getByTestId('merchant-result');
  await expect(page.getByText('入驻申请已提交')).toBeVisible();
  await expect(result).toContainText('示例数码专营店');
  await expect(result.getByTestId('merchant-status')).toHaveText('审核中');
  // The answer lists the same application.
  await expect(page.locator('.ant-list-item').filter({ hasText: '示例数码专营店' })).toBeVisible();

  // The lookup by phone answers a person: it asks for the image code first.
  await page.getByRole('button', { name: '再提交一份' }).click();
  const lookup = page.locator('.merchant__lookup');
  await lookup.getByPlaceholder('申请时填写的手机号').fill(phone);
  await lookup.getByRole('button', { name: /查\s?询/ }).click();
  await expect(lookup.getByText('请输入图形验证码').last()).toBeVisible();
  await lookup.getByPlaceholder('请输入图形验证码').fill(await imageCodeOnPage(page, request));
  await lookup.getByRole('button', { name: /查\s?询/ }).click();
  await expect(lookup.locator('.ant-list-item').filter({ hasText: '示例数码专营店' })).toBeVisible();
  await expect(lookup.getByTestId('merchant-status')).toHaveText('审核中');
  // Each image code answers one look-up: a new picture is drawn.
  await expect(lookup.getByPlaceholder('请输入图形验证码')).toHaveValue('');
});

test('shop street lists shops with their products; customer service stores a message', async ({ page }) => {
  await page.goto('shopStreet?siteId=1000');
  const shop = page.getByTestId('shop-card').first();
  await expect(shop).toBeVisible();
  await expect(shop.locator('.shop-card__products a').first()).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${screenshots}catalog-shop-street.png`, fullPage: true });

  await page.goto('platformCustomerService?siteId=10110');
  await expect(page.getByTestId('service-channels').locator('li').first()).toBeVisible();
  await page.getByLabel('您的称呼').fill('李女士');
  await page.getByLabel('手机号码').fill('13800138000');
  await page.getByLabel('留言内容').fill('请问积分兑换的商品多久可以发货？');
  await page.getByRole('button', { name: '提交留言' }).click();
  await expect(page.getByTestId('service-sent')).toContainText('留言已提交');
  await page.screenshot({ path: `${screenshots}catalog-service.png`, fullPage: true });
});
