import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page } from '@playwright/test';

/** The demo operators (README) as the console's browser tests log them in. */
export const OPERATORS = {
  admin: 'Admin#2026',
  op719: 'Op719#2026',
  finance: 'Finance#2026',
  cs10110: 'Cs10110#2026',
} as const;

/** A fresh browser context logged in to the console as a demo operator. */
export async function operatorPage(browser: Browser, username: keyof typeof OPERATORS): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/admin/login');
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(OPERATORS[username]);
  await page.getByRole('button', { name: /登\s?录/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

/** A full-page screenshot into `dir` once the page has settled and its fonts are in. */
export function shooter(dir: string) {
  mkdirSync(dir, { recursive: true });
  return async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  };
}
