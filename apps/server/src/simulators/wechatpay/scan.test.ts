import { fenToYuan } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from './scan-page';
import { nativeOrder, PREFIX, startSimulator } from './testing';

let env: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  env = await startSimulator({ fetch: async () => new Response(null, { status: 204 }) });
});
afterAll(() => env.close());

const prepay = async (overrides: { total?: number; expiresInMs?: number } = {}) => {
  const order = nativeOrder('https://mall.example.com/notify', overrides);
  const { code_url } = await env.client.nativePrepay({ ...order, description: '<b>礼盒</b> & 卡片' });
  return { order, codeUrl: code_url, pr: code_url.split('pr=')[1] as string };
};
const page = (query: string) => env.app.inject({ method: 'GET', url: `${PREFIX}/scan?${query}` });
const press = (pr: string, button: 'pay' | 'fail', accept = 'text/html') =>
  env.app.inject({
    method: 'POST',
    url: `${PREFIX}/scan/${pr}/${button}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    payload: '',
  });

describe('the scan page', () => {
  it('shows the payment sheet with the amount, merchant and order, escaped', async () => {
    const { order, pr } = await prepay({ total: 12345 });
    const response = await page(`pr=${pr}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('确认支付');
    expect(response.body).toContain('¥</small>123.45');
    expect(response.body).toContain(order.out_trade_no);
    expect(response.body).toContain('测试商城 &lt;旗舰店&gt;');
    expect(response.body).toContain('&lt;b&gt;礼盒&lt;/b&gt; &amp; 卡片');
    expect(response.body).not.toContain('<b>礼盒');
    expect(response.body).toContain(`action="${PREFIX}/scan/${pr}/pay"`);
  });

  it('takes the whole code_url as ?code=', async () => {
    const { codeUrl } = await prepay();
    const response = await page(`code=${encodeURIComponent(codeUrl)}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('确认支付');
  });

  it('pays: redirects back to the page, which shows 支付成功; later visits show 订单已支付', async () => {
    const { order, pr } = await prepay({ total: 990 });
    const pressed = await press(pr, 'pay');
    expect(pressed.statusCode).toBe(303);
    expect(pressed.headers.location).toBe(`${PREFIX}/scan?pr=${pr}&result=paid`);
    expect(env.sim.trade(order.out_trade_no)?.trade_state).toBe('SUCCESS');

    const after = await page(`pr=${pr}&result=paid`);
    expect(after.body).toContain('支付成功');
    expect(after.body).toContain('9.90');

    const again = await press(pr, 'pay');
    expect(again.headers.location).toBe(`${PREFIX}/scan?pr=${pr}`);
    expect((await page(`pr=${pr}`)).body).toContain('订单已支付');
  });

  it('a simulated bank failure shows 支付失败 and leaves the trade PAYERROR', async () => {
    const { order, pr } = await prepay();
    const pressed = await press(pr, 'fail');
    expect(pressed.statusCode).toBe(303);
    expect((await page(`pr=${pr}&result=failed`)).body).toContain('支付失败');
    expect(env.sim.trade(order.out_trade_no)?.trade_state).toBe('PAYERROR');
  });

  it('cancelling leaves the trade alone', async () => {
    const { order, pr } = await prepay();
    expect((await page(`pr=${pr}&result=cancelled`)).body).toContain('已取消支付');
    expect(env.sim.trade(order.out_trade_no)?.trade_state).toBe('NOTPAY');
  });

  it('a closed trade shows 二维码已过期', async () => {
    const { order, pr } = await prepay();
    await env.client.close(order.out_trade_no);
    expect((await press(pr, 'pay')).statusCode).toBe(303);
    expect((await page(`pr=${pr}`)).body).toContain('二维码已过期');
  });

  it('answers JSON to a caller that asks for it', async () => {
    const { pr } = await prepay();
    const paid = await press(pr, 'pay', 'application/json');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ trade_state: 'SUCCESS' });
    const again = await press(pr, 'pay', 'application/json');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'ORDERPAID' });
  });

  it('an unknown code is a 404 二维码无效', async () => {
    const response = await page('pr=NOSUCHCODE');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('二维码无效');
    expect((await press('NOSUCHCODE', 'pay')).statusCode).toBe(404);
  });
});

describe('developer views', () => {
  it('lists the latest trades and notify deliveries', async () => {
    const { order } = await prepay();
    const trades = (await env.app.inject({ method: 'GET', url: `${PREFIX}/trades` })).json();
    expect(trades[0]).toMatchObject({ out_trade_no: order.out_trade_no, trade_state: 'NOTPAY' });
    expect(trades[0].scan_url).toMatch(new RegExp(`^${PREFIX}/scan\\?pr=`));
    const notifies = await env.app.inject({ method: 'GET', url: `${PREFIX}/notifies` });
    expect(notifies.statusCode).toBe(200);
    expect(Array.isArray(notifies.json())).toBe(true);
  });
});

describe('page helpers', () => {
  it('formats fen as yuan and escapes HTML', () => {
    expect([fenToYuan(1), fenToYuan(100), fenToYuan(123456)]).toEqual(['0.01', '1.00', '1234.56']);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
