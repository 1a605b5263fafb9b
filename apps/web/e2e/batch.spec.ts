import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { catalogApi, type HomeProductList, type ProductCard, type ProductDetail } from '@sitemall/contract';

/**
 * Batch ordering in the browser against the real server: template download, a csv with one bad
 * row, the row error, the fixed sheet, submission (one order per recipient), the result report
 * and the orders. Demo members: apps/server/src/db/demo/members.ts.
 */

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });
test.describe.configure({ mode: 'default' });

const MEMBER = { siteId: 719, phone: '13800000719', password: 'Demo0719' };
const HEADER = '商品ID或名称,规格,数量,收货人,手机号,省,市,区/县,详细地址';

async function api<T>(request: APIRequestContext, path: string, data: object): Promise<T> {
  const answer = await request.post(`/front-mall-api${path}`, { data });
  const body = (await answer.json()) as { code: number; msg: string; data: T };
  expect(body.code, `${path}: ${body.msg}`).toBe(200);
  return body.data;
}

/** A cheap delivered product in stock, with one of its specifications, read from the API. */
async function productLine(request: APIRequestContext) {
  const home = await api<HomeProductList>(request, catalogApi.homeProductList.path, {
    siteId: MEMBER.siteId,
  });
  const card = home.floors
    .flatMap((f) => f.list)
    .filter((p: ProductCard) => p.hasStock && p.source.hasAddressTab)
    .sort((a, b) => a.price - b.price)[0];
  expect(card).toBeDefined();
  const detail = await api<ProductDetail>(request, catalogApi.productDetail.path, {
    siteId: MEMBER.siteId,
    productId: card!.id,
  });
  const spec = detail.productSpecifications.find((s) => s.stock >= 5);
  expect(spec).toBeDefined();
  return { productId: detail.id, name: detail.name, spec: spec! };
}

async function login(page: Page) {
  await page.goto(`PwdLogin?siteId=${MEMBER.siteId}`);
  await page.getByPlaceholder('请输入手机号').fill(MEMBER.phone);
  await page.getByPlaceholder('请输入密码').fill(MEMBER.password);
  await page.getByRole('button', { name: /^登\s?录$/ }).click();
  await expect(page).not.toHaveURL(/PwdLogin/);
}

const upload = (page: Page, text: string) =>
  page
    .locator('input[type=file]')
    .setInputFiles({ name: 'batch.csv', mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${text}`) });

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

test('batch order: template, a bad row found, fixed, one order per recipient, report', async ({
  page,
  request,
}) => {
  const line = await productLine(request);
  await login(page);
  await page.goto(`batchOrder?siteId=${MEMBER.siteId}`);
  await expect(page.getByTestId('batch-step-template')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${screenshots}batch-template.png`, fullPage: true });

  // 1 download the template
  const templateDownload = page.waitForEvent('download');
  await page.getByTestId('batch-download-template').click();
  const template = await templateDownload;
  expect(template.suggestedFilename()).toBe('批量下单模板.xlsx');
  const templatePath = await template.path();
  expect(readFileSync(templatePath).subarray(0, 2).toString()).toBe('PK');

  // 2 upload a csv whose second data row has a wrong phone
  await page.getByTestId('batch-to-upload').click();
  const good = [
    `${line.productId},${line.spec.specificationValue},2,王小明,13911110001,江苏省,南京市,玄武区,中山路 1 号`,
    `${line.productId},${line.spec.id},1,李小红,13911110002,上海,上海市,浦东新区,"世纪大道 100 号, 5 楼"`,
  ];
  const bad = `${line.productId},${line.spec.specificationValue},1,赵小刚,12345,江苏省,南京市,玄武区,汉中路 2 号`;
  await upload(page, [HEADER, good[0], bad, good[1]].join('\r\n'));

  // 3 the preview marks row 3 and refuses to submit
  await expect(page.getByTestId('batch-step-preview')).toBeVisible();
  await expect(page.getByTestId('batch-has-errors')).toContainText('有 1 行填写有误');
  const errors = page.getByTestId('batch-row-errors');
  await expect(errors).toHaveCount(1);
  await expect(errors).toContainText('手机号须为 11 位数字，以 1 开头');
  await expect(page.locator('tr.batch-row--error')).toContainText('3');
  await expect(page.getByTestId('batch-submit')).toBeDisabled();
  await page.getByText('只看错误行').locator('..').getByRole('switch').click();
  await settle(page);
  await page.screenshot({ path: `${screenshots}batch-preview-error.png`, fullPage: true });

  // drop the bad row and upload again
  await page.getByRole('button', { name: '重新上传' }).first().click();
  await upload(page, [HEADER, ...good].join('\r\n'));
  await expect(page.getByTestId('batch-step-preview')).toBeVisible();
  await expect(page.getByTestId('batch-has-errors')).toHaveCount(0);
  await expect(page.getByTestId('batch-groups').locator('tbody tr')).toHaveCount(2);
  await expect(page.getByTestId('batch-rows')).toContainText(line.name);
  await settle(page);
  await page.screenshot({ path: `${screenshots}batch-preview.png`, fullPage: true });

  // 4 submit: one order per recipient
  await page.getByTestId('batch-submit').click();
  const confirm = page.locator('.ant-popconfirm');
  await confirm.getByRole('button', { name: /^提\s?交$/ }).click();
  await expect(confirm).toBeHidden();
  // One order per recipient, each in its own transaction: on a loaded CI machine this outlasts
  // the default 10 s.
  await expect(page.getByTestId('batch-step-result')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('已提交 2 个订单')).toBeVisible();
  const links = page.getByTestId('batch-order-link');
  await expect(links).toHaveCount(2);
  const orderNos = await links.allTextContents();
  await settle(page);
  await page.screenshot({ path: `${screenshots}batch-result.png`, fullPage: true });

  const reportDownload = page.waitForEvent('download');
  await page.getByTestId('batch-report').click();
  const report = await reportDownload;
  expect(report.suggestedFilename()).toBe('批量下单结果.xlsx');
  expect(
    readFileSync(await report.path())
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');

  // the orders exist: open one
  await links.first().click();
  await expect(page).toHaveURL(/orderDetail\?/);
  await expect(page.getByText(orderNos[0] ?? '-').first()).toBeVisible();
});
