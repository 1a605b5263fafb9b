import { expect, type Page, test } from '@playwright/test';
import { catalogApi, type ProductDetail, shopUrl } from '@sitemall/contract';
import { menu, modal, modalOk, operatorPage, pickFirstOption, screenshots } from './console.ts';
import { api } from './site.ts';

/**
 * The console's catalogue and stock screens (issue 12, item 5) against the real server: the 719
 * operator lists a product of the shared catalogue that 719 did not sell at a price, changes the
 * price, the storefront of 719 sells it at that price; then adjusts its stock with a reason and
 * sees the move in the ledger. Screenshots go to SHOTS_DIR (default /work/shots/catalogue).
 * Alone: npx playwright test e2e/admin-catalogue.spec.ts --project admin-catalogue --no-deps
 */

test.describe.configure({ mode: 'serial' });
// A cold console and a cold storefront in one test on a shared machine: the listing journey took
// 23 s alone, 72 s at the end of the chain and 114 s beside admin-ops (load average 30 on 2
// CPUs), as generous as the other console journeys.
test.setTimeout(300_000);

const shot = screenshots('/work/shots/catalogue');
/** A product of the shared catalogue the demo site 719 does not sell (demo plan: id % 15 === 7). */
const PRODUCT_ID = 7;

const search = async (page: Page, table: string, keyword: string) => {
  const pro = page.locator('.ant-pro-table').filter({ hasText: table });
  await pro.getByLabel('商品编号/名称').fill(keyword);
  await pro.getByRole('button', { name: /查\s?询/ }).click();
  return pro;
};

test('the 719 operator lists a shared product at a price; the storefront of 719 sells it at that price', async ({
  browser,
  request,
  page,
}) => {
  const before = await request.post(shopUrl(catalogApi.productDetail), {
    data: { siteId: 719, productId: PRODUCT_ID },
  });
  expect(((await before.json()) as { code: number }).code).not.toBe(200);

  const op = await operatorPage(browser, 'op719');
  await menu(op, '商品管理');
  await expect(op.locator('.ant-pro-table tbody tr.ant-table-row').first()).toBeVisible();
  await shot(op, 'catalogue-products');

  await op.getByRole('button', { name: '上架商品' }).click();
  const form = modal(op);
  await form.getByLabel('共享商品').fill(String(PRODUCT_ID));
  await op.locator(`.ant-select-item-option[title^="${PRODUCT_ID} "]`).first().click();
  await pickFirstOption(op, form.getByLabel('站点分类'));
  const prices = form.locator('input[id*="price_"]');
  await expect(prices.first()).toBeVisible();
  for (let i = 0; i < (await prices.count()); i++) await prices.nth(i).fill('88.8');
  await form.getByLabel('每单限购').fill('2');
  await shot(op, 'catalogue-list-form');
  await modalOk(op);
  await expect(op.getByText('商品已上架')).toBeVisible();

  const table = await search(op, '站点商品', String(PRODUCT_ID));
  const row = table.locator('tbody tr.ant-table-row').filter({ hasText: '¥88.80 起' }).first();
  await expect(row).toContainText('在售');
  await expect(row).toContainText('2 件/单');
  await shot(op, 'catalogue-listed');

  // A new price: the lowest specification price is the product's price on the site.
  await row.getByRole('button', { name: '改价' }).click();
  await modal(op).locator('input[id*="price_"]').first().fill('66');
  await shot(op, 'catalogue-price-form');
  await modalOk(op);
  await expect(op.getByText('站点价已保存')).toBeVisible();
  await expect(table.locator('tbody tr.ant-table-row').filter({ hasText: '¥66.00 起' })).toHaveCount(1);

  const detail = await api<ProductDetail>(request, catalogApi.productDetail.path, {
    siteId: 719,
    productId: PRODUCT_ID,
  });
  expect(detail.price).toBe(6_600);
  await page.goto(`productDetails?id=${PRODUCT_ID}&siteId=719`);
  await expect(page.getByText(detail.name).first()).toBeVisible();
  await expect(page.getByText(/66(\.00)?/).first()).toBeVisible();
  await shot(page, 'storefront-719-listed-product');

  // The export of the site's products downloads an xlsx.
  const [download] = await Promise.all([
    // Bounded: an export that fails shows a message and never downloads.
    op.waitForEvent('download', { timeout: 30_000 }),
    op.getByRole('button', { name: '导出 xlsx' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^products-719-\d{8}\.xlsx$/);
});

test('the 719 operator adjusts the stock with a reason and sees the move in the ledger', async ({
  browser,
}) => {
  const op = await operatorPage(browser, 'op719');
  await menu(op, '库存管理');
  await expect(op.getByText(/低库存（在售/)).toBeVisible();
  await shot(op, 'stock-list');
  const table = await search(op, '规格库存', String(PRODUCT_ID));
  const row = table
    .locator('tbody tr.ant-table-row')
    .filter({ has: op.getByRole('cell', { name: String(PRODUCT_ID), exact: true }) })
    .first();
  await expect(row).toBeVisible();
  const stockBefore = Number(await row.locator('td').nth(4).innerText());

  await row.getByRole('button', { name: '调整' }).click();
  await modal(op).getByLabel('调整数量').fill('25');
  await modalOk(op);
  await expect(modal(op).getByText('请填写操作原因')).toBeVisible();
  await modal(op).getByLabel('调整原因').fill('到货入库 25 件');
  await shot(op, 'stock-adjust-form');
  await modalOk(op);
  await expect(op.getByText('库存已调整')).toBeVisible();
  await expect(row.locator('td').nth(4)).toHaveText(String(stockBefore + 25));

  await row.getByRole('button', { name: '流水' }).click();
  const drawer = op.locator('.ant-drawer-content');
  await expect(drawer).toContainText('+25');
  await expect(drawer).toContainText('到货入库 25 件');
  await expect(drawer).toContainText('汇通运营');
  await expect(drawer).toContainText(String(stockBefore + 25));
  await shot(op, 'stock-ledger');
});

test('the 719 operator creates a brand-new product with a specification and stock, listed on 719', async ({
  browser,
  request,
}) => {
  const op = await operatorPage(browser, 'op719');
  await menu(op, '商品管理');
  await op.getByRole('button', { name: '新建商品' }).click();
  const form = modal(op);
  await form.getByLabel('商品名称').fill('汇通定制 保温杯 500ml');
  await form.getByLabel('品牌').fill('汇通');
  await pickFirstOption(op, form.getByLabel('供货店铺'));
  await pickFirstOption(op, form.getByLabel('站点分类'));
  await form.getByLabel('规格名称').fill('白色');
  await form.getByLabel('期初库存').fill('40');
  await form.getByLabel('站点价（元）').fill('59');
  await shot(op, 'catalogue-create-form');
  await modalOk(op);
  await expect(op.getByText('商品已创建并上架')).toBeVisible();
  const table = await search(op, '站点商品', '汇通定制');
  const row = table.locator('tbody tr.ant-table-row').filter({ hasText: '汇通定制 保温杯 500ml' });
  await expect(row).toContainText('¥59.00 起');
  await expect(row).toContainText('40');
  await shot(op, 'catalogue-created');
  const id = Number(await row.locator('td').first().innerText());
  const detail = await api<ProductDetail>(request, catalogApi.productDetail.path, {
    siteId: 719,
    productId: id,
  });
  expect(detail).toMatchObject({ name: '汇通定制 保温杯 500ml', price: 5_900, isOnSale: true });
});
