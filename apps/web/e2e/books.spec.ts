import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';

/**
 * Last in the chain (issue 15, "every ledger adds up after the run"): after every journey has
 * paid, refunded, returned, exchanged and issued on the same database, the finance reviewer
 * opens 支付与对账 → 账务核对 and every check of the books holds (points and card balances
 * against their ledgers, refunds against payments per order).
 * Screenshot: SHOTS_DIR (default /work/shots/books).
 * Alone: npx playwright test e2e/books.spec.ts --project books --no-deps
 */

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/books';
mkdirSync(SHOTS, { recursive: true });

test('after every journey the books add up, in the finance reviewer’s 账务核对', async ({ page }) => {
  await page.goto('/admin/login');
  await page.getByPlaceholder('用户名').fill('finance');
  await page.getByPlaceholder('密码').fill('Finance#2026');
  await page.getByRole('button', { name: /登\s?录/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.getByRole('menuitem', { name: '支付与对账' }).click();
  await page.getByRole('tab', { name: '账务核对' }).click();
  await expect(page.getByText('账务全部相符')).toBeVisible();
  const results = page.locator('.ant-tabs-tabpane-active .ant-table-row');
  await expect(results).toHaveCount(6);
  await expect(results.filter({ hasText: '一致' })).toHaveCount(6);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${SHOTS}/books.png`, fullPage: true });
});
