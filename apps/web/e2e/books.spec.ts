import { expect, test } from '@playwright/test';
import { consoleLogin, screenshots } from './console.ts';

/**
 * Last in the chain (issue 15, "every ledger adds up after the run"): after every journey has
 * paid, refunded, returned, exchanged and issued on the same database, the finance reviewer
 * opens 支付与对账 → 账务核对 and every check of the books holds (points and card balances
 * against their ledgers, refunds against payments per order).
 * Screenshot: SHOTS_DIR (default /work/shots/books).
 * Alone: npx playwright test e2e/books.spec.ts --project books --no-deps
 */

const shot = screenshots('/work/shots/books');

test('after every journey the books add up, in the finance reviewer’s 账务核对', async ({ page }) => {
  await consoleLogin(page, 'finance');
  await page.getByRole('menuitem', { name: '支付与对账' }).click();
  await page.getByRole('tab', { name: '账务核对' }).click();
  await expect(page.getByText('账务全部相符')).toBeVisible();
  const results = page.locator('.ant-tabs-tabpane-active .ant-table-row');
  await expect(results).toHaveCount(6);
  await expect(results.filter({ hasText: '一致' })).toHaveCount(6);
  await shot(page, 'books');
});
