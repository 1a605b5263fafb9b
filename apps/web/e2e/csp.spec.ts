import { expect, type Page, test } from '@playwright/test';
import { cheapProduct, SITES, settle } from './site';

/**
 * The storefront runs under the server's Content-Security-Policy (no inline script, styles
 * inline for antd, images from data:/blob:): every route of spec section 2 and router.tsx, for
 * each demo site, loads without a single violation.
 */
const routes = (productId: number) => [
  '',
  'home',
  'personalCenter',
  'myAddress',
  'billDetails',
  'myOrder',
  'batchOrder',
  'orderDetail?orderNo=SO000000000000000001',
  `productDetails?id=${productId}`,
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

for (const siteId of SITES) {
  test(`every route of site ${siteId} loads under the CSP without a violation`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const product = await cheapProduct(request, siteId);
    const csp = await watchCsp(page);
    for (const route of routes(product.id)) {
      const url = `${route}${route.includes('?') ? '&' : '?'}siteId=${siteId}`;
      const answer = await page.goto(url);
      // The policy is really on: without it this test could not fail.
      expect(answer?.headers()['content-security-policy'], url).toContain("script-src 'self'");
      await settle(page);
      await expect(page.locator('#root'), url).not.toBeEmpty();
      expect(await csp.violations(), url).toEqual([]);
    }
    expect(csp.consoleErrors).toEqual([]);
  });
}

test('the watcher sees a violation: an inline script is blocked and reported', async ({ page }) => {
  const csp = await watchCsp(page);
  await page.goto('home?siteId=1000');
  await settle(page);
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.body.append(script);
  });
  await expect.poll(csp.violations).toEqual([expect.objectContaining({ directive: 'script-src-elem' })]);
  expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
  await expect.poll(() => csp.consoleErrors.length).toBeGreaterThan(0);
});
