import type { SiteConfig } from '@sitemall/contract';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Plain HTML 4 with inline styles: the page must render in IE 6 and later. */
export function oldIeNotice(config: SiteConfig | undefined): string {
  const site = config?.mallSite;
  const bankName =
    site?.configJson.bankBranded === 'Y' ? site.configJson.bankName || site.siteName : undefined;
  const title = escapeHtml(site?.siteName ?? 'Sitemall');
  const advice = bankName
    ? `请通过${escapeHtml(bankName)}手机银行 App 或微信公众号进入本商城，或更换其他浏览器（如 Chrome、Edge、Firefox）访问。`
    : '请更换其他浏览器（如 Chrome、Edge、Firefox）访问本商城。';
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">
<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><title>${title}</title></head>
<body style="margin:0;padding:0;font-family:'Microsoft YaHei',SimSun,sans-serif;background:#f5f5f5">
<div style="width:560px;margin:120px auto;padding:40px;background:#fff;border:1px solid #e5e5e5;text-align:center">
<h1 style="font-size:22px;color:#333">${title}</h1>
<p style="font-size:16px;color:#c00">您当前使用的浏览器版本过低，无法正常访问本商城。</p>
<p style="font-size:14px;color:#666;line-height:24px">${advice}</p>
</div></body></html>`;
}
