import { expect, test } from '@playwright/test';
import { payInSimulator, pwdLogin, settle } from './site.ts';

/**
 * Buying packs in the browser (issue 13): 我的卡包 lists the site's pack products; one bought
 * with points lands in the list; one bought as a gift shows its code and PIN once, which bind.
 * Alone: npx playwright test e2e/packs.spec.ts --project packs --no-deps
 */

const shots = process.env.SHOTS_DIR ?? '/work/shots/packs/';
// Demo members have one session at a time: run in order.
test.describe.configure({ mode: 'default' });
test.setTimeout(120_000);

test('buy a pack with points, buy one as a gift and bind its code', async ({ page }) => {
  await pwdLogin(page, 719);
  await page.goto('myCards?siteId=719');
  const product = page.getByTestId('pack-product').filter({ hasText: '100积分礼品卡' });
  await expect(product).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${shots}my-cards-buy-719.png`, fullPage: true });
  const before = await page.getByTestId('card-row').count();

  await product.getByTestId('pack-buy').click();
  await page.getByRole('button', { name: '确认购买' }).click();
  await expect(page.getByText(/购买成功：100积分礼品卡 已放入我的卡包/)).toBeVisible();
  await expect(page.getByTestId('card-row')).toHaveCount(before + 1);

  // As a gift: the code and PIN are shown once, in full.
  await page.getByTestId('pack-gift').check();
  await product.getByTestId('pack-buy').click();
  await page.getByRole('button', { name: '确认购买' }).click();
  const shown = page.getByTestId('pack-gift-code');
  await expect(shown).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${shots}my-cards-gift-code-719.png`, fullPage: true });
  const code = (await shown.locator('tr', { hasText: '卡号' }).locator('strong').innerText()).trim();
  const pin = (await shown.locator('tr', { hasText: '密码' }).locator('strong').innerText()).trim();
  expect(code).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){3}$/);
  expect(pin).toMatch(/^\d{6}$/);
  await page.getByRole('button', { name: '我已记下' }).click();
  await expect(page.getByTestId('card-row')).toHaveCount(before + 1);

  // The code binds (here by the buyer; a friend would do the same on their account).
  await page.getByTestId('card-code').fill(code);
  await page.getByTestId('card-pin').fill(pin);
  await page.getByTestId('card-bind').click();
  await expect(page.getByText(/绑定成功/)).toBeVisible();
  await expect(page.getByTestId('card-row')).toHaveCount(before + 2);
  await settle(page);
  await page.screenshot({ path: `${shots}my-cards-after-719.png`, fullPage: true });
});

test('buy a pack as a gift by WeChat: scan in the simulator, see its code', async ({ page, context }) => {
  await pwdLogin(page, 719);
  await page.goto('myCards?siteId=719');
  const product = page.getByTestId('pack-product').filter({ hasText: '100积分礼品卡' });
  await expect(product.getByTestId('pack-buy-wechat')).toBeVisible();
  await page.getByTestId('pack-gift').check();
  await product.getByTestId('pack-buy-wechat').click();

  // The mall's QR panel, in a dialog: ¥100.00 by WeChat for the 100-point pack.
  const panel = page.getByTestId('wechat-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('wechat-cash')).toHaveText('¥100.00');
  await expect(panel.getByTestId('wechat-qr').locator('canvas')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${shots}wechat-qr-719.png`, fullPage: true });

  // The payer scans: the demo link opens the WeChat Pay simulator, which pays.
  await payInSimulator(page, context, (simulator) =>
    simulator.screenshot({ path: `${shots}wechat-simulator-719.png`, fullPage: true }),
  );

  // The dialog polls the pack order: paid, the card issued, its code and PIN shown once.
  const shown = page.getByTestId('pack-gift-code');
  await expect(shown).toBeVisible({ timeout: 15_000 });
  await expect(panel).toBeHidden();
  const code = (await shown.locator('tr', { hasText: '卡号' }).locator('strong').innerText()).trim();
  expect(code).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){3}$/);
  expect((await shown.locator('tr', { hasText: '密码' }).locator('strong').innerText()).trim()).toMatch(
    /^\d{6}$/,
  );
  await settle(page);
  await page.screenshot({ path: `${shots}wechat-paid-code-719.png`, fullPage: true });
  await page.getByRole('button', { name: '我已记下' }).click();
});
