import type { SiteConfig } from '@sitemall/contract';
import QRCode from 'qrcode';

/**
 * Demo pictures drawn as SVG from the site's own data, so the demo looks like a real shop
 * without downloading a single image.
 */
const esc = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
const FONT = "font-family='PingFang SC, Microsoft YaHei, Noto Sans CJK SC, sans-serif'";

function banner(config: SiteConfig): string {
  const color = config.advancedConfig.primaryColor;
  const name = esc(config.mallSite.siteName);
  const slogan = esc(config.advancedConfig.slogan);
  return `<svg xmlns='http://www.w3.org/2000/svg' width='1200' height='360' viewBox='0 0 1200 360'>
<defs><linearGradient id='g' x1='0' y1='0' x2='1' y2='1'><stop offset='0' stop-color='${color}'/><stop offset='1' stop-color='#1a1a2e'/></linearGradient></defs>
<rect width='1200' height='360' fill='url(#g)'/>
<circle cx='1030' cy='80' r='190' fill='#fff' opacity='.07'/><circle cx='930' cy='330' r='120' fill='#fff' opacity='.06'/>
<g fill='#fff' opacity='.9'><rect x='820' y='120' width='120' height='150' rx='14' opacity='.25'/><rect x='960' y='90' width='150' height='180' rx='14' opacity='.35'/><rect x='880' y='180' width='110' height='110' rx='55' opacity='.3'/></g>
<text x='80' y='150' fill='#fff' font-size='52' font-weight='700' ${FONT}>${slogan}</text>
<text x='82' y='205' fill='#fff' opacity='.85' font-size='24' ${FONT}>${name} · 精选好物 积分兑换</text>
<rect x='82' y='240' width='168' height='48' rx='24' fill='#fff'/><text x='166' y='272' text-anchor='middle' fill='${color}' font-size='20' font-weight='600' ${FONT}>立即兑换 ›</text>
</svg>`;
}

function logo(config: SiteConfig): string {
  const color = config.advancedConfig.primaryColor;
  const initial = esc(config.mallSite.siteName.slice(0, 1));
  return `<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64' viewBox='0 0 64 64'>
<rect width='64' height='64' rx='16' fill='${color}'/><path d='M14 24h36l-4 26H18z' fill='#fff' opacity='.25'/>
<text x='32' y='43' text-anchor='middle' fill='#fff' font-size='30' font-weight='700' ${FONT}>${initial}</text></svg>`;
}

const FEATURE_ICONS: Record<string, string> = {
  genuine:
    "<path d='M32 10l18 7v13c0 12-8 20-18 24-10-4-18-12-18-24V17z' fill='none' stroke='C' stroke-width='4'/><path d='M24 32l6 6 11-12' fill='none' stroke='C' stroke-width='4'/>",
  delivery:
    "<rect x='8' y='20' width='30' height='22' rx='3' fill='none' stroke='C' stroke-width='4'/><path d='M38 27h10l8 8v7H38z' fill='none' stroke='C' stroke-width='4'/><circle cx='20' cy='46' r='5' fill='C'/><circle cx='46' cy='46' r='5' fill='C'/>",
  return:
    "<path d='M16 30a16 16 0 1 1 5 12' fill='none' stroke='C' stroke-width='4'/><path d='M10 24l6 7 7-6' fill='none' stroke='C' stroke-width='4'/><text x='32' y='38' text-anchor='middle' font-size='14' font-weight='700' fill='C'>7</text>",
  service:
    "<path d='M14 34v-4a18 18 0 0 1 36 0v4' fill='none' stroke='C' stroke-width='4'/><rect x='10' y='32' width='10' height='14' rx='3' fill='C'/><rect x='44' y='32' width='10' height='14' rx='3' fill='C'/><path d='M50 46c0 6-8 8-14 8' fill='none' stroke='C' stroke-width='3'/>",
};

function feature(config: SiteConfig, kind: string): string | undefined {
  const icon = FEATURE_ICONS[kind];
  if (!icon) return undefined;
  const color = config.advancedConfig.primaryColor;
  return `<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64' viewBox='0 0 64 64'>${icon.replaceAll("'C'", `'${color}'`)}</svg>`;
}

async function qr(config: SiteConfig): Promise<string> {
  return QRCode.toString(`https://mall.example.com/shoppingmall/home?siteId=${config.mallSite.id}`, {
    type: 'svg',
    margin: 1,
    color: { dark: '#222222', light: '#ffffff' },
  });
}

/** `banner-719.svg`, `logo-719.svg`, `qr-719.svg`, `feature-genuine-719.svg` ... */
export const DEMO_IMAGE = /^(banner|logo|qr|feature-([a-z]+))-(\d+)\.svg$/;

export async function demoImage(name: string, config: SiteConfig): Promise<string | undefined> {
  const match = DEMO_IMAGE.exec(name);
  if (!match) return undefined;
  const [, kind = '', featureKind] = match;
  if (kind === 'banner') return banner(config);
  if (kind === 'logo') return logo(config);
  if (kind === 'qr') return qr(config);
  return featureKind ? feature(config, featureKind) : undefined;
}
