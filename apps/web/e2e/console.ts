import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContextOptions, expect, type Locator, type Page } from '@playwright/test';

/**
 * The operator console (/admin/) as the browser tests drive it: the demo operators' logins, the
 * menu, the confirm buttons of its dialogs, and the screenshots of its screens.
 */

/** Demo operators: apps/server/src/db/demo/operators.ts. */
export const OPERATORS = {
  admin: 'Admin#2026',
  op719: 'Op719#2026',
  finance: 'Finance#2026',
  cs10110: 'Cs10110#2026',
} as const;
export type Operator = keyof typeof OPERATORS;

/** Sends the console's login form (the dynamic password, when asked, is the caller's). */
export async function fillConsoleLogin(page: Page, username: string, password: string) {
  await page.goto('/admin/login');
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s?录/ }).click();
}

/** Logs the operator in on this page; the console opens on its sites screen. */
export async function consoleLogin(page: Page, username: Operator) {
  await fillConsoleLogin(page, username, OPERATORS[username]);
  // The console's first load is a cold 2.7 MB bundle on a shared machine.
  await expect(page).toHaveURL(/\/admin\/sites/, { timeout: 30_000 });
}

/**
 * A page of a browser context of its own (an operator at their own desk) with the operator
 * logged in. `watch` sees the page before the login (to collect its errors, say).
 */
export async function operatorPage(
  browser: Browser,
  username: Operator,
  options: { context?: BrowserContextOptions; watch?: (page: Page) => void } = {},
) {
  const page = await (await browser.newContext(options.context)).newPage();
  options.watch?.(page);
  await consoleLogin(page, username);
  return page;
}

/** Opens a screen of the console's side menu. */
export const menu = (page: Page, name: string) => page.getByRole('menuitem', { name }).click();

/** Opens a screen of the console's 营销活动 menu group, unfolding the group when it is closed. */
export async function openActivityScreen(
  page: Page,
  name: '秒杀活动' | '抽奖活动' | '拼团活动' | '砍价活动' | '权益与礼品',
) {
  const item = page.getByRole('menuitem', { name, exact: true });
  // Right after the login the layout may still redraw its menu and fold the group again, which
  // swallows a click (seen once in CI): try again until the screen's item is the selected one.
  await expect(async () => {
    if (!(await item.isVisible())) await page.getByRole('menuitem', { name: '营销活动' }).click();
    await item.click({ timeout: 5_000 });
    await expect(item).toHaveClass(/ant-menu-item-selected/, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Opens a select and picks its first option, in that select's own dropdown (its listbox id is the
 * input's aria-controls): a dropdown of the select before may still be leaving on a busy machine,
 * and an option of it never becomes clickable. Waits until the dropdown has closed. On a busy
 * machine a click on an option while the dropdown is still opening can be lost (CI saw the
 * dropdown stay open for 10 s), so the pick is tried again, reopening the select if it closed.
 */
export async function pickFirstOption(page: Page, select: Locator) {
  await select.click();
  const list = await select.getAttribute('aria-controls');
  const dropdown = page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${list}"]`) });
  await expect(dropdown).toBeVisible();
  await expect(async () => {
    if (!(await dropdown.isVisible())) await select.click();
    await dropdown.locator('.ant-select-item-option').first().click({ timeout: 3_000 });
    await expect(dropdown).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

/** The open dialog on top. */
export const modal = (page: Page) => page.locator('.ant-modal-content').last();

/** Confirms the dialog, drawer form or pop-confirm on top (确定, 确认 or OK). */
export const modalOk = (page: Page) =>
  page
    .locator('.ant-modal-footer:visible, .ant-popconfirm-buttons:visible, .ant-drawer-footer:visible')
    .last()
    .getByRole('button', { name: /确\s?[认定]|OK/ })
    .click();

/** A screenshot function for the directory SHOTS_DIR, or `dir` without it: the page settled, full. */
export function screenshots(dir: string) {
  const shots = process.env.SHOTS_DIR ?? dir;
  mkdirSync(shots, { recursive: true });
  return async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
  };
}
