import { fenToYuan } from '@sitemall/contract';
import { DEMO_BANNER } from '../demo';

/**
 * The "phone" a developer pays with: a payment sheet like WeChat's after scanning a Native
 * code. Self-contained HTML (no scripts, no external assets) so it works from any browser
 * and in Playwright; every value shown is escaped.
 */
export interface ScanOrder {
  pr: string;
  merchantName: string;
  description: string;
  outTradeNo: string;
  total: number;
}

export type ScanView =
  | { kind: 'invalid' }
  | { kind: 'sheet'; order: ScanOrder; hasFailed?: boolean }
  | { kind: 'cancelled'; order: ScanOrder }
  | { kind: 'paid'; order: ScanOrder }
  | { kind: 'already-paid'; order: ScanOrder }
  | { kind: 'expired'; order: ScanOrder };

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;padding:48px 0 16px;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#ededed;
font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Segoe UI",Roboto,sans-serif;color:#191919}
.card{width:360px;max-width:100%;background:#fff;border-radius:12px;padding:28px 24px;box-shadow:0 2px 12px rgba(0,0,0,.08);text-align:center}
.brand{font-size:13px;color:#07c160;letter-spacing:1px;margin-bottom:16px}
.merchant{font-size:16px;color:#555}
.amount{font-size:40px;font-weight:600;margin:10px 0 20px}
.amount small{font-size:24px;margin-right:2px}
dl{margin:0 0 24px;text-align:left;font-size:14px;border-top:1px solid #f0f0f0}
dl div{display:flex;justify-content:space-between;gap:12px;padding:10px 0;border-bottom:1px solid #f0f0f0}
dt{color:#888;flex:none}dd{margin:0;text-align:right;word-break:break-all}
button,.button{display:block;width:100%;border:0;border-radius:8px;padding:12px;font-size:17px;cursor:pointer;text-decoration:none;font-family:inherit}
.primary{background:#07c160;color:#fff}.primary:active{background:#06ad56}
.secondary{background:#f2f2f2;color:#191919;margin-top:10px}
.link{background:none;color:#576b95;font-size:14px;margin-top:14px;padding:4px}
form{margin:0}
.notice{border-radius:8px;padding:10px;margin-bottom:16px;font-size:14px;background:#fff3f3;color:#fa5151}
.result{font-size:22px;font-weight:600;margin:8px 0}
.icon{width:64px;height:64px;border-radius:50%;margin:8px auto 12px;display:flex;align-items:center;justify-content:center;font-size:36px;color:#fff}
.ok{background:#07c160}.bad{background:#fa5151}.grey{background:#b2b2b2}
.hint{color:#888;font-size:14px;margin:0 0 20px}
.demo{position:fixed;top:0;left:0;right:0;padding:8px 12px;background:#fff7e6;color:#ad4e00;border-bottom:1px solid #ffd591;font-size:14px;text-align:center}`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><div class="demo" role="note">${DEMO_BANNER}</div><main class="card"><div class="brand">微信支付 · 模拟器</div>${content}</main></body></html>`;
}

const details = (order: ScanOrder) => `<dl>
<div><dt>商品</dt><dd>${escapeHtml(order.description)}</dd></div>
<div><dt>商户订单号</dt><dd>${escapeHtml(order.outTradeNo)}</dd></div>
</dl>`;

const heading = (order: ScanOrder) =>
  `<div class="merchant">${escapeHtml(order.merchantName)}</div>
<div class="amount"><small>¥</small>${fenToYuan(order.total)}</div>`;

function result(options: {
  icon: string;
  tone: string;
  title: string;
  hint: string;
  order?: ScanOrder;
  back?: string;
}) {
  const amount = options.order ? heading(options.order) : '';
  const back = options.back
    ? `<a class="button secondary" href="${escapeHtml(options.back)}">重新支付</a>`
    : '';
  return page(
    options.title,
    `<div class="icon ${options.tone}">${options.icon}</div><div class="result">${escapeHtml(options.title)}</div>
${amount}<p class="hint">${escapeHtml(options.hint)}</p>${back}`,
  );
}

/** `base` is the scan page's own path (the mount prefix + /scan). */
export function renderScanPage(view: ScanView, base: string): string {
  if (view.kind === 'invalid') {
    return result({
      icon: '!',
      tone: 'grey',
      title: '二维码无效',
      hint: '该二维码不存在或已被清理，请让商户重新生成。',
    });
  }
  const { order } = view;
  const pagePath = `${base}?pr=${encodeURIComponent(order.pr)}`;
  const action = (what: 'pay' | 'fail') => escapeHtml(`${base}/${encodeURIComponent(order.pr)}/${what}`);
  switch (view.kind) {
    case 'paid':
      return result({ icon: '✓', tone: 'ok', title: '支付成功', hint: '请返回商户页面查看订单。', order });
    case 'already-paid':
      return result({
        icon: '✓',
        tone: 'ok',
        title: '订单已支付',
        hint: '该订单已完成支付，无需重复支付。',
        order,
      });
    case 'expired':
      return result({
        icon: '!',
        tone: 'grey',
        title: '二维码已过期',
        hint: '订单已关闭，请返回商户页面重新下单。',
      });
    case 'cancelled':
      return result({
        icon: '×',
        tone: 'grey',
        title: '已取消支付',
        hint: '订单未支付，可返回重新支付。',
        back: pagePath,
      });
    case 'sheet':
      return page(
        `付款给 ${order.merchantName}`,
        `${view.hasFailed ? '<div class="notice" role="alert">支付失败：银行卡扣款未成功，可重新支付。</div>' : ''}
${heading(order)}${details(order)}
<form method="post" action="${action('pay')}"><button class="primary" type="submit">确认支付</button></form>
<a class="button secondary" href="${escapeHtml(`${pagePath}&result=cancelled`)}">取消</a>
<form method="post" action="${action('fail')}"><button class="button link" type="submit">模拟支付失败</button></form>`,
      );
  }
}
