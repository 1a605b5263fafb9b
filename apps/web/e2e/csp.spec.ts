import { expect, type Page, test } from '@playwright/test';
import { cheapProduct, SITES, settle } from './site';

/**
 * The storefront runs under the server's Content-Security-Policy (no inline script, styles
 * inline for antd, images from data:/blob:): every route of spec section 2 and router.tsx, for
 * each demo site, loads without a single violation.
 */
const PRODUCT = 'productDetails';
const ROUTES = [
  '',
  'home',
  'personalCenter',
  'myAddress',
  'billDetails',
  'myOrder',
  'batchOrder',
  'orderDetail?orderNo=SO000000000000000001',
  PRODUCT,
  'shoppingCart',
  'orderSubmission',
  'success',
  'payresultvalid',
  `searchList?itemName=${encodeURIComponent('耳机')}&breadTxt=${encodeURIComponent('耳机')}`,
  `specialList?advertId=1&breadTxt=${encodeURIComponent('专题')}`,
  'selectPayWay?orderNo=SO000000000000000001',
  'login',
  'register',
  'businessSettlement',
  'shopStreet',
  'platformCustomerService',
  'PwdLogin',
  'CodeLogin',
  'AccountLogin',
  'no-such-page',
];

type Violation = { directive: string; blocked: string; source: string };

/** Collects CSP violations (the DOM event, recorded before any page script runs) and CSP console errors. */
async function watchCsp(page: Page) {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __csp: Violation[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile }),
    );
  });
  const violations = () => page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp);
  return { consoleErrors, violations };
}

/** Loads a page and checks that the policy is really on (without it this test could not fail). */
async function load(page: Page, url: string) {
  const answer = await page.goto(url);
  expect(answer?.headers()['content-security-policy'], url).toContain("script-src 'self'");
  await settle(page);
}

for (const siteId of SITES) {
  test.describe(`site ${siteId} under the CSP`, () => {
    for (const route of ROUTES) {
      test(`/${route.split('?')[0]} loads without a violation`, async ({ page, request }) => {
        const path = route === PRODUCT ? `${PRODUCT}?id=${(await cheapProduct(request, siteId)).id}` : route;
        const csp = await watchCsp(page);
        await load(page, `${path}${path.includes('?') ? '&' : '?'}siteId=${siteId}`);
        await expect(page.locator('#root')).not.toBeEmpty();
        expect(await csp.violations()).toEqual([]);
        expect(csp.consoleErrors).toEqual([]);
      });
    }
  });
}

test('the OpenAPI page and the WeChat Pay simulator page load without a violation', async ({ page }) => {
  const csp = await watchCsp(page);
  await load(page, '/front-mall-api/docs/');
  await expect(page.getByText('Sitemall shopper API')).toBeVisible();
  expect(await csp.violations()).toEqual([]);
  await load(page, '/simulator/wechatpay/scan?pr=none');
  await expect(page.getByText('二维码无效')).toBeVisible();
  await expect(page.getByRole('note')).toContainText('演示环境');
  expect(await csp.violations()).toEqual([]);
  expect(csp.consoleErrors).toEqual([]);
});

test('the watcher sees a violation: an inline script is blocked and reported', async ({ page }) => {
  const csp = await watchCsp(page);
  await load(page, 'home?siteId=1000');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.body.append(script);
  });
  await expect.poll(csp.violations).toEqual([expect.objectContaining({ directive: 'script-src-elem' })]);
  expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
  await expect.poll(() => csp.consoleErrors.length).toBeGreaterThan(0);
});

test('no page can be framed: the pay page in another site’s iframe stays empty', async ({
  page,
  baseURL,
}) => {
  const csp = await watchCsp(page);
  const payPage = new URL('selectPayWay?orderNo=SO000000000000000001&siteId=1000', baseURL).href;
  // Another origin (about:blank here) frames the pay page, as a clickjacking page would.
  await page.setContent(`<iframe src="${payPage}" width="800" height="600"></iframe>`);
  await expect.poll(() => csp.consoleErrors.join('\n')).toMatch(/frame-ancestors 'none'/);
  await expect(page.frameLocator('iframe').locator('#root')).toHaveCount(0);
});
