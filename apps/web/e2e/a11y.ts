import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Where the issue-17 screenshots go, to be looked at as a shopper would. */
export const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/store';
mkdirSync(SHOTS, { recursive: true });

/**
 * Rules outside WCAG's tags held at any impact: a page's headings go down one level at a time
 * (an operator's product text brings its own h3s, so the page gives them an h2 above).
 */
const OUTLINE_RULES = ['heading-order'];

/**
 * Axe findings on the page as it is now: of serious or critical impact under the WCAG 2.1 A/AA
 * rules, and any under OUTLINE_RULES.
 */
export async function seriousViolations(page: Page) {
  // A toast or dialog caught halfway through its fade has the contrast of no final state: let
  // the finite animations end first (spinners and other endless ones go on).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  // antd's toasts leave on their own timer (3 s), which can start their fade while axe is still
  // reading the page: a toast caught mid-fade failed colour contrast once in CI. They are
  // antd's message in its default colours (dark text on white), so the page is read without them.
  const wcag = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('.ant-message')
    .analyze();
  const outline = await new AxeBuilder({ page }).withRules(OUTLINE_RULES).analyze();
  return [
    ...wcag.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    ...outline.violations,
  ].map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    // What the element is, so a CI log alone names it.
    html: v.nodes.slice(0, 5).map((n) => n.html.slice(0, 160)),
  }));
}

export async function expectNoSeriousViolations(page: Page, where: string) {
  // Soft: one run lists every page that fails, not only the first.
  expect.soft(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

/** Collects the page's uncaught errors (`pageerror`): a journey must end with none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  return errors;
}

/** The page settled (requests done, fonts drawn), then a full-page screenshot. */
export async function shot(page: Page, name: string) {
  // Lazy pictures load as they come into view: pass over the page once, as a shopper scrolls.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Presses Tab until `target` has the focus (keyboard-only use); fails if it is never reached. */
export async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 80) {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)))
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`never reached by Tab: ${target}`);
}
