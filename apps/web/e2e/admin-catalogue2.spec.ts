import { crc32, deflateSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { type CategoryTree, catalogApi, type ProductDetail, shopUrl } from '@sitemall/contract';
import ExcelJS from 'exceljs';
import { menu, modal, modalOk, operatorPage, pickFirstOption, screenshots } from './console.ts';
import { api } from './site.ts';

/**
 * The console's catalogue, second part (issue 12): the 719 operator gives a product of its own
 * pictures (a file that only claims to be a picture is refused), makes the second the main one,
 * removes one, and the storefront of 719 shows them; then exports the product sheet, edits a
 * price, checks it (a bad row saves nothing and says why), and imports it. The product's name
 * carries markup, shown as text everywhere. Last, a new label, group and category of 719's menu,
 * the product put under it, shown in the storefront's menu, then hidden from it. Screenshots go to SHOTS_DIR (default
 * /work/shots/catalogue2).
 * Alone: npx playwright test e2e/admin-catalogue2.spec.ts --project admin-catalogue2 --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const shot = screenshots('/work/shots/catalogue2');
const NAME = '巡检保温杯 <img src=x onerror=alert(1)>';

/** A real PNG of one colour (w × h), for the browser to upload and draw. */
function png(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: w }, () => [r, g, b]).flat()),
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: h }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let productId: number;

const productRow = async (op: Page) => {
  const pro = op.locator('.ant-pro-table').filter({ hasText: '站点商品' });
  await pro.getByLabel('商品编号/名称').fill(String(productId));
  await pro.getByRole('button', { name: /查\s?询/ }).click();
  const row = pro.locator('tbody tr.ant-table-row').filter({ hasText: '巡检保温杯' });
  await expect(row).toHaveCount(1);
  return row;
};

test('the 719 operator uploads, orders and removes pictures; the storefront shows them', async ({
  browser,
  request,
  page,
}) => {
  const op = await operatorPage(browser, 'op719');
  const token = (await op.evaluate(() => sessionStorage.getItem('sitemall.admin.token'))) ?? '';
  // Set-up through the API: a product of 719's own (no other site sells it).
  const categories = (await (
    await request.get('/admin-api/catalogue/categories?siteId=719', { headers: { token } })
  ).json()) as { data: { list: { id: number }[] } };
  const created = (await (
    await request.post('/admin-api/catalogue/create', {
      headers: { token },
      data: {
        siteId: 719,
        name: NAME,
        shopId: 1,
        source: 2,
        categoryId: categories.data.list[0]?.id,
        specs: [
          { specificationValue: '500ml', stock: 20, price: 5_900 },
          { specificationValue: '750ml', stock: 20, price: 6_900 },
        ],
      },
    })
  ).json()) as { code: number; data: { productId: number } };
  expect(created.code).toBe(200);
  productId = created.data.productId;

  await menu(op, '商品管理');
  const row = await productRow(op);
  // The markup in the name is text, not an element.
  await expect(row.getByText(NAME)).toBeVisible();
  await expect(row.locator('img[src="x"]')).toHaveCount(0);
  await row.getByRole('button', { name: '图片' }).click();
  const drawer = op.locator('.ant-drawer-content');
  await expect(drawer.getByText('暂无图片')).toBeVisible();
  const input = drawer.locator('input[type="file"]');

  // A text file named like a picture is refused by its bytes.
  await input.setInputFiles({
    name: 'fake.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<script>alert(1)</script>'),
  });
  await expect(op.getByText('仅支持 PNG、JPG、WebP 格式的图片')).toBeVisible();
  await expect(drawer.getByText('暂无图片')).toBeVisible();

  await input.setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: png(240, 240, [200, 40, 40]) });
  await expect(drawer.locator('.ant-card')).toHaveCount(1);
  await input.setInputFiles({
    name: 'blue.png',
    mimeType: 'image/png',
    buffer: png(240, 240, [40, 80, 200]),
  });
  const cards = drawer.locator('.ant-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.first().getByText('主图')).toBeVisible();
  const first = await cards.nth(0).locator('img').getAttribute('src');
  const second = await cards.nth(1).locator('img').getAttribute('src');
  await shot(op, 'catalogue2-pictures');

  // The second becomes the main picture.
  await cards.nth(1).getByRole('button', { name: '设为主图' }).click();
  await expect(op.getByText('主图已设置')).toBeVisible();
  await expect(cards.nth(0).locator('img')).toHaveAttribute('src', second as string);
  await shot(op, 'catalogue2-pictures-main');

  const detail = await api<ProductDetail>(request, catalogApi.productDetail.path, { siteId: 719, productId });
  expect(detail.images).toEqual([second, first]);
  await page.goto(`productDetails?id=${productId}&siteId=719`);
  await expect(page.getByText(NAME).first()).toBeVisible();
  const main = page.locator('.gallery__main img');
  await expect(main).toHaveAttribute('src', second as string);
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await shot(page, 'catalogue2-storefront-pictures');

  // Removing one leaves the other.
  await cards.nth(1).getByRole('button', { name: '删除' }).click();
  await op
    .locator('.ant-popconfirm-buttons')
    .getByRole('button', { name: /确\s?定|OK/ })
    .click();
  await expect(op.getByText('图片已删除')).toBeVisible();
  await expect(cards).toHaveCount(1);
  await op.context().close();
});

test('the 719 operator edits the exported sheet, checks it, fixes a bad row and imports it', async ({
  browser,
}) => {
  const op = await operatorPage(browser, 'op719');
  await menu(op, '商品管理');
  const row = await productRow(op);
  await expect(row).toContainText('¥59.00 起');
  const [download] = await Promise.all([
    op.waitForEvent('download', { timeout: 30_000 }),
    op.getByRole('button', { name: '导出 xlsx' }).click(),
  ]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  for (let r = sheet.rowCount; r >= 2; r -= 1)
    if (Number(sheet.getRow(r).getCell(1).value) !== productId) sheet.spliceRows(r, 1);
  expect(sheet.rowCount).toBe(3);
  sheet.getRow(2).getCell(7).value = 45.5;
  // The limit is the product's: every row of it says the same.
  sheet.getRow(2).getCell(10).value = 2;
  sheet.getRow(3).getCell(10).value = 2;
  // A bad row: a price that is not an amount.
  sheet.addRow([
    productId,
    '',
    '',
    '',
    sheet.getRow(2).getCell(5).value,
    '',
    '<b>便宜</b>',
    '',
    '在售',
    '不限',
  ]);
  const withError = Buffer.from(await book.xlsx.writeBuffer());

  await op.getByRole('button', { name: '导入 xlsx' }).click();
  const dialog = op.locator('.ant-modal-content').filter({ hasText: '导入商品表' });
  const input = dialog.locator('input[type="file"]');
  await input.setInputFiles({
    name: 'products.xlsx',
    mimeType: 'application/octet-stream',
    buffer: withError,
  });
  await dialog
    .getByRole('button', { name: /导\s?入/ })
    .last()
    .click();
  await expect(dialog.getByTestId('import-summary')).toContainText('1 行有错误，未保存任何修改');
  await expect(dialog.getByText('站点价须为金额')).toBeVisible();
  // Names from the catalogue are text in the report too.
  await expect(dialog.getByText(NAME).first()).toBeVisible();
  await shot(op, 'catalogue2-import-errors');

  // Fixed: the bad row removed; checked first, then imported.
  sheet.spliceRows(4, 1);
  const fixed = Buffer.from(await book.xlsx.writeBuffer());
  await input.setInputFiles({ name: 'products.xlsx', mimeType: 'application/octet-stream', buffer: fixed });
  await dialog.getByRole('button', { name: /检\s?查/ }).click();
  await expect(dialog.getByTestId('import-summary')).toContainText('检查通过：将修改 1 个商品');
  await expect(dialog.getByText('站点价 59.00 → 45.50')).toBeVisible();
  await shot(op, 'catalogue2-import-check');
  await dialog
    .getByRole('button', { name: /导\s?入/ })
    .last()
    .click();
  await expect(dialog.getByTestId('import-summary')).toContainText('已导入：1 个商品已修改');
  await shot(op, 'catalogue2-import-done');
  await dialog.getByRole('button', { name: /关\s?闭/ }).click();
  const after = await productRow(op);
  await expect(after).toContainText('¥45.50 起');
  await expect(after).toContainText('2 件/单');
  await shot(op, 'catalogue2-imported');
  await op.context().close();
});

test('the 719 operator builds a menu entry, files the product under it, and hides it', async ({
  browser,
  request,
  page,
}) => {
  const op = await operatorPage(browser, 'op719');
  await menu(op, '商品管理');
  await op.getByRole('button', { name: '分类管理' }).click();
  const drawer = op.locator('.ant-drawer-content');
  const tree = drawer.getByTestId('menu-tree');
  await expect(tree).toContainText('标签');

  const entry = async (trigger: () => Promise<void>, name: string, message = '已保存') => {
    await trigger();
    await modal(op).getByLabel('名称').fill(name);
    await modalOk(op);
    await expect(op.getByText(message).last()).toBeVisible();
    await expect(tree.getByText(name, { exact: true })).toBeVisible();
  };
  const node = (name: string) =>
    tree.locator('.ant-tree-treenode').filter({ has: op.getByText(name, { exact: true }) });
  // A retry (or a run on a kept database) finds the entries of the run before it: each names its own.
  const run = Date.now().toString(36).slice(-4);
  const labelName = `巡检专区${run}`;
  const groupName = `巡检分组${run}`;
  const categoryName = `巡检分类${run}`;
  await entry(() => drawer.getByRole('button', { name: '新建标签' }).click(), labelName);
  await entry(() => node(labelName).getByRole('button', { name: '新建分组' }).click(), groupName);
  await entry(() => node(groupName).getByRole('button', { name: '新建分类' }).click(), categoryName);
  await shot(op, 'catalogue2-menus');
  await op.locator('.ant-drawer-close').click();

  const row = await productRow(op);
  await row.getByRole('button', { name: '分类' }).click();
  const select = modal(op).getByLabel('站点分类');
  await select.fill(categoryName);
  await pickFirstOption(op, select);
  await modalOk(op);
  await expect(op.getByText('已归入分类')).toBeVisible();
  await expect(await productRow(op)).toContainText(categoryName);

  const storefrontMenu = async () =>
    (
      (await (await request.post(shopUrl(catalogApi.cateList), { data: { siteId: 719 } })).json()) as {
        data: CategoryTree;
      }
    ).data.mallCateLables;
  const label = (await storefrontMenu()).find((l) => l.lableName === labelName);
  expect(label?.cateProductList.map((c) => c.catName)).toEqual([categoryName]);
  await page.goto(`searchList?cateId=${label?.cateProductList[0]?.id}&breadTxt=${categoryName}&siteId=719`);
  await expect(page.getByText('巡检保温杯').first()).toBeVisible();
  await shot(page, 'catalogue2-storefront-menu');

  // Hidden: gone from the storefront's menu, still for sale.
  await op.getByRole('button', { name: '分类管理' }).click();
  await node(labelName).getByRole('button', { name: '修改' }).first().click();
  await modal(op).getByLabel('在商城菜单中隐藏').click();
  await modalOk(op);
  await expect(node(labelName).getByText('已隐藏')).toBeVisible();
  await shot(op, 'catalogue2-menus-hidden');
  expect((await storefrontMenu()).map((l) => l.lableName)).not.toContain(labelName);
  const detail = await api<ProductDetail>(request, catalogApi.productDetail.path, { siteId: 719, productId });
  expect(detail.isOnSale).toBe(true);
  await op.context().close();
});
