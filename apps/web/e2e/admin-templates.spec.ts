import { expect, type Page, test } from '@playwright/test';
import { TEMPLATES_MSG } from '@sitemall/contract';
import { operatorPage, screenshots } from './console.ts';

/**
 * 模板与广告 of the console (issue 12, "Sites") against the real server: the platform admin
 * edits site 10110's footer note and its menu adverts; the preview beside the form shows each
 * change as it is typed, before saving; after saving, the storefront's footer and menu show
 * it. A bad picture address is refused in the form. The menu is put back as it was at the end.
 * Screenshots go to SHOTS_DIR (default /work/shots/templates).
 * Alone: npx playwright test e2e/admin-templates.spec.ts --project admin-templates --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const shot = screenshots('/work/shots/templates');
const NOTE_TEXT = '云企福利热线 400-600-10110';
const NOTE = `<p>${NOTE_TEXT} · <strong>工作日 9:00-18:00</strong></p><script>window.hacked = 1</script>`;
const AD = { title: '年终福利', adName: '年终福利专场', url: 'https://www.example.com/yunqi/year-end' };

const modalOk = (page: Page) =>
  page
    .locator('.ant-modal-footer')
    .last()
    .getByRole('button', { name: /确\s?[认定]|OK/ })
    .click();

test('an operator edits the footer and the menu adverts of 10110 with a live preview; the storefront shows them', async ({
  browser,
}) => {
  const page = await operatorPage(browser, 'admin');
  await page.getByRole('menuitem', { name: '站点配置' }).click();
  await page.getByRole('row', { name: /10110/ }).getByRole('link', { name: '模板与广告' }).click();
  await expect(page).toHaveURL(/\/admin\/sites\/10110\/templates$/);
  const preview = page.getByTestId('storefront-preview');
  await expect(preview).toContainText('云企员工福利商城');
  await expect(page.getByTestId('preview-search')).toHaveText('搜索福利商品，如 中秋礼盒');
  await shot(page, '01-templates-10110');

  // The head template: the preview's search box follows the typing.
  await page.getByLabel('搜索框提示文字').fill('搜索年货礼盒');
  await expect(page.getByTestId('preview-search')).toHaveText('搜索年货礼盒');
  await page.getByRole('button', { name: '撤销修改' }).click();
  await expect(page.getByTestId('preview-search')).toHaveText('搜索福利商品，如 中秋礼盒');

  // The foot template: a bad picture address is refused, the note shows in the preview as typed.
  await page.getByRole('tab', { name: '页脚模板' }).click();
  const qr = page.getByPlaceholder('/media/… 或 https://…').last();
  const qrBefore = await qr.inputValue();
  await qr.fill('javascript:alert(1)');
  await expect(page.getByText(TEMPLATES_MSG.badPicture)).toBeVisible();
  await qr.fill(qrBefore);
  await expect(page.getByText(TEMPLATES_MSG.badPicture)).toHaveCount(0);
  await page.getByLabel('页脚说明').fill(NOTE);
  await expect(page.getByTestId('preview-note')).toContainText(NOTE_TEXT);
  await expect(page.getByTestId('preview-note').locator('strong')).toHaveText('工作日 9:00-18:00');
  await expect(page.getByText('有未保存的修改')).toBeVisible();
  await shot(page, '02-footer-typed');
  await page.getByRole('button', { name: '保存模板' }).click();
  await expect(page.getByText('模板已保存，商城前台将显示新内容')).toBeVisible();
  await expect(page.getByText('有未保存的修改')).toHaveCount(0);

  // A new menu advert shows in the preview while it is typed, then is saved.
  const menu = page.getByTestId('preview-menu');
  await page.getByRole('button', { name: '添加广告' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('外部链接').check();
  await dialog.getByLabel('标题（显示在导航上）').fill(AD.title);
  await dialog.getByLabel('广告名称（悬停提示、专题页标题）').fill(AD.adName);
  await dialog.getByRole('textbox', { name: '链接' }).fill('www.example.com');
  await modalOk(page);
  await expect(dialog.getByText(TEMPLATES_MSG.badLink)).toBeVisible();
  await dialog.getByRole('textbox', { name: '链接' }).fill(AD.url);
  await expect(menu).toContainText(AD.title);
  await shot(page, '03-advert-typed');
  await modalOk(page);
  await expect(page.getByText('广告已保存')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(AD.title) })).toBeVisible();

  // Switched off, an advert leaves the menu; moved up, the new one comes before 福利政策.
  await page.getByRole('switch', { name: '上线 健康生活' }).click();
  await expect(page.getByText('广告已下线')).toBeVisible();
  await expect(menu).not.toContainText('健康生活');
  await page.getByRole('button', { name: `上移 ${AD.title}` }).click();
  await expect(page.getByText('广告顺序已保存')).toBeVisible();
  await expect(menu.locator('li')).toHaveText(['全部分类', '首页', '中秋福利', AD.title, '福利政策']);
  await shot(page, '04-saved');

  // The storefront shows what was saved.
  const shop = await (await browser.newContext()).newPage();
  await shop.goto('home?siteId=10110');
  const footer = shop.locator('footer.footer');
  // The note's sanitiser is a chunk of its own, loaded after the page: slow on a busy machine.
  await expect(footer.locator('.footer__note')).toContainText(NOTE_TEXT, { timeout: 30_000 });
  await expect(footer.locator('.footer__note strong')).toHaveText('工作日 9:00-18:00');
  expect(await shop.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
  const ads = shop.locator('.navbar__ads');
  await expect(ads.getByRole('link', { name: AD.title })).toHaveAttribute('href', AD.url);
  await expect(ads.getByRole('link')).toHaveText(['首页', '中秋福利', AD.title, '福利政策']);
  await shot(shop, '05-storefront-10110');

  // The audit log holds each write.
  await page.getByRole('menuitem', { name: '审计日志' }).click();
  await expect(page.getByText('site.template').first()).toBeVisible();
  await expect(page.getByText('advert.order').first()).toBeVisible();

  // The menu as it was for the tests that follow: 健康生活 back on, the new advert off.
  await page.goto('/admin/sites/10110/templates');
  await page.getByRole('switch', { name: '上线 健康生活' }).click();
  await expect(page.getByText('广告已上线')).toBeVisible();
  await page.getByRole('switch', { name: `上线 ${AD.title}` }).click();
  await expect(page.getByText('广告已下线')).toBeVisible();

  // Another site from the selector: its own templates in the form and the preview.
  await page.getByLabel('选择站点').first().click();
  await page.locator('.ant-select-item-option', { hasText: '719 汇通银行信用卡积分商城' }).click();
  await expect(page).toHaveURL(/\/admin\/sites\/719\/templates$/);
  await expect(page.getByTestId('preview-search')).toHaveText('搜索积分好礼，如 蓝牙耳机');
  await expect(page.getByTestId('preview-hotline')).toContainText('400-819-0719');
  await expect(page.getByText('有未保存的修改')).toHaveCount(0);
});
