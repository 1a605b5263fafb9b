/**
 * Product and shop tiles drawn as SVG from the catalogue's own data (name, brand, kind), so the
 * demo looks like a real shop without downloading a picture. Deterministic: the same product
 * always draws the same tile; views 2 and 3 vary the angle and the layout.
 */
import { DEMO_KINDS } from '../../db/demo/catalog';

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
const FONT = "font-family='PingFang SC, Microsoft YaHei, Noto Sans CJK SC, sans-serif'";

/** Pictograms on a 100x100 grid, drawn in white. */
const PICTOGRAMS: Record<string, string> = {
  phone:
    "<rect x='30' y='10' width='40' height='80' rx='8'/><rect x='35' y='18' width='30' height='58' rx='2' fill-opacity='.35'/><circle cx='50' cy='83' r='3' fill-opacity='.5'/>",
  battery:
    "<rect x='22' y='28' width='52' height='44' rx='6'/><rect x='74' y='42' width='6' height='16' rx='2'/><path d='M50 34l-10 18h9l-3 14 12-20h-9z' fill-opacity='.4'/>",
  headphone:
    "<path d='M20 60v-8a30 30 0 0 1 60 0v8' fill='none' stroke='#fff' stroke-width='8'/><rect x='14' y='54' width='18' height='30' rx='6'/><rect x='68' y='54' width='18' height='30' rx='6'/>",
  speaker:
    "<rect x='28' y='10' width='44' height='80' rx='10'/><circle cx='50' cy='62' r='14' fill-opacity='.4'/><circle cx='50' cy='28' r='7' fill-opacity='.4'/>",
  laptop:
    "<rect x='20' y='22' width='60' height='40' rx='4'/><rect x='25' y='27' width='50' height='30' fill-opacity='.35'/><path d='M10 68h80l-6 10H16z'/>",
  tablet:
    "<rect x='22' y='12' width='56' height='76' rx='8'/><rect x='28' y='19' width='44' height='60' rx='2' fill-opacity='.35'/>",
  fridge:
    "<rect x='28' y='8' width='44' height='84' rx='6'/><path d='M28 40h44' stroke='#000' stroke-opacity='.25' stroke-width='2'/><rect x='34' y='20' width='4' height='12' rx='2' fill-opacity='.4'/><rect x='34' y='48' width='4' height='16' rx='2' fill-opacity='.4'/>",
  washer:
    "<rect x='22' y='10' width='56' height='80' rx='6'/><circle cx='50' cy='56' r='20' fill-opacity='.4'/><circle cx='50' cy='56' r='12' fill-opacity='.5'/><rect x='30' y='18' width='14' height='6' rx='3' fill-opacity='.4'/>",
  aircon:
    "<rect x='12' y='26' width='76' height='30' rx='8'/><path d='M20 48h60' stroke='#000' stroke-opacity='.2' stroke-width='3'/><path d='M32 64q4 8 0 16M50 64q4 8 0 16M68 64q4 8 0 16' fill='none' stroke='#fff' stroke-width='4'/>",
  tv: "<rect x='10' y='18' width='80' height='52' rx='4'/><rect x='16' y='24' width='68' height='40' fill-opacity='.35'/><rect x='38' y='74' width='24' height='6' rx='3'/>",
  pot: "<path d='M18 44h64v26a14 14 0 0 1-14 14H32a14 14 0 0 1-14-14z'/><rect x='14' y='36' width='72' height='8' rx='4'/><rect x='42' y='26' width='16' height='8' rx='4'/>",
  hairdryer:
    "<path d='M16 30a20 20 0 0 1 20-20h36v36H36a20 20 0 0 1-20-16z'/><rect x='40' y='44' width='14' height='44' rx='6'/><circle cx='34' cy='28' r='8' fill-opacity='.4'/>",
  snack:
    "<path d='M26 14h48l-4 10 4 10-4 10 4 10-4 10 4 10-4 10H30l4-10-4-10 4-10-4-10 4-10-4-10z'/><circle cx='50' cy='50' r='12' fill-opacity='.4'/>",
  nut: "<ellipse cx='50' cy='56' rx='28' ry='30'/><path d='M50 26v60' stroke='#000' stroke-opacity='.2' stroke-width='3'/><path d='M42 22q8-14 16 0' fill='none' stroke='#fff' stroke-width='5'/>",
  bottle:
    "<path d='M42 8h16v16l8 12v50a6 6 0 0 1-6 6H40a6 6 0 0 1-6-6V36l8-12z'/><rect x='34' y='48' width='32' height='22' fill-opacity='.4'/>",
  wine: "<path d='M30 10h40v20a20 20 0 0 1-40 0z'/><rect x='47' y='48' width='6' height='30'/><rect x='34' y='78' width='32' height='6' rx='3'/>",
  tea: "<path d='M18 40h52v20a20 20 0 0 1-20 20H38a20 20 0 0 1-20-20z'/><path d='M70 46h6a8 8 0 0 1 0 16h-6' fill='none' stroke='#fff' stroke-width='5'/><path d='M36 30q6-10 0-20M52 30q6-10 0-20' fill='none' stroke='#fff' stroke-width='4'/>",
  milk: "<path d='M34 22l6-12h20l6 12v64a4 4 0 0 1-4 4H38a4 4 0 0 1-4-4z'/><rect x='34' y='46' width='32' height='24' fill-opacity='.4'/>",
  fruit:
    "<circle cx='50' cy='58' r='30'/><path d='M50 28q0-12 10-18' fill='none' stroke='#fff' stroke-width='5'/><ellipse cx='62' cy='20' rx='10' ry='5' fill-opacity='.7'/>",
  leaf: "<path d='M20 80Q20 20 84 16 80 80 20 80z'/><path d='M24 76L70 30' stroke='#000' stroke-opacity='.2' stroke-width='3'/>",
  rice: "<path d='M24 30h52l-6 56H30z'/><rect x='20' y='22' width='60' height='10' rx='4'/><text x='50' y='68' text-anchor='middle' font-size='22' fill='#000' fill-opacity='.25' font-weight='700'>米</text>",
  'bottle-pump':
    "<rect x='30' y='36' width='40' height='54' rx='10'/><rect x='44' y='20' width='12' height='16'/><path d='M44 20h26v6H56' /><rect x='36' y='52' width='28' height='20' fill-opacity='.4'/>",
  tooth:
    "<path d='M30 16c10-6 16 2 20 2s10-8 20-2 8 26 0 40-8 28-12 28-4-20-8-20-4 20-8 20-8-14-12-28-8-34 0-40z'/>",
  lipstick:
    "<rect x='36' y='52' width='28' height='38' rx='3'/><rect x='40' y='36' width='20' height='16'/><path d='M40 36V18l20-8v26z' fill-opacity='.7'/>",
  can: "<rect x='28' y='20' width='44' height='66' rx='8'/><rect x='26' y='14' width='48' height='10' rx='4'/><circle cx='50' cy='54' r='12' fill-opacity='.4'/>",
  diaper:
    "<path d='M14 26h72v14c0 22-16 38-36 38S14 62 14 40z'/><path d='M14 34h72' stroke='#000' stroke-opacity='.2' stroke-width='3'/>",
  'bottle-baby':
    "<rect x='34' y='34' width='32' height='54' rx='10'/><rect x='32' y='26' width='36' height='10' rx='3'/><path d='M42 26q8-22 16 0z'/><path d='M40 50h10M40 62h10M40 74h10' stroke='#000' stroke-opacity='.25' stroke-width='3'/>",
  book: "<path d='M14 22q18-8 36 2v62q-18-10-36-2z'/><path d='M86 22q-18-8-36 2v62q18-10 36-2z' fill-opacity='.75'/>",
  pen: "<path d='M64 10l16 16-44 44-20 4 4-20z'/><path d='M58 16l16 16' stroke='#000' stroke-opacity='.25' stroke-width='3'/><rect x='14' y='84' width='72' height='4' rx='2'/>",
  bed: "<rect x='10' y='46' width='80' height='24' rx='4'/><rect x='16' y='34' width='26' height='14' rx='6' fill-opacity='.7'/><rect x='10' y='70' width='8' height='14'/><rect x='82' y='70' width='8' height='14'/>",
  cup: "<path d='M30 14h40l-4 72a4 4 0 0 1-4 4H38a4 4 0 0 1-4-4z'/><rect x='28' y='10' width='44' height='10' rx='4'/><rect x='33' y='40' width='34' height='18' fill-opacity='.4'/>",
  shoe: "<path d='M10 46q14 4 24-10l14 12q14 8 30 10 12 2 12 14v6H10z'/><path d='M10 72h80' stroke='#000' stroke-opacity='.25' stroke-width='4'/>",
  ticket:
    "<path d='M12 28h76v14a8 8 0 0 0 0 16v14H12V58a8 8 0 0 0 0-16z'/><path d='M62 30v40' stroke='#000' stroke-opacity='.25' stroke-width='3' stroke-dasharray='4 4'/><text x='36' y='58' text-anchor='middle' font-size='18' fill='#000' fill-opacity='.3' font-weight='700'>券</text>",
  shop: "<path d='M14 36l8-20h56l8 20z'/><rect x='18' y='36' width='64' height='46' rx='2' fill-opacity='.75'/><rect x='42' y='56' width='16' height='26' fill-opacity='.6'/>",
};

const STYLE = new Map(
  DEMO_KINDS.map(({ kind }) => [kind.code, { pictogram: kind.pictogram, colors: kind.colors }]),
);
const DEFAULT_STYLE = { pictogram: 'shop', colors: ['#8c8c8c', '#262626'] as [string, string] };

/** Splits a name into at most two lines of about `width` characters (a Latin letter counts half). */
function lines(text: string, width: number): string[] {
  const out: string[] = [''];
  let used = 0;
  for (const word of text.split(/(\s+)/)) {
    const cost = [...word].reduce((n, c) => n + (c.charCodeAt(0) < 128 ? 0.55 : 1), 0);
    if (used + cost > width && out.at(-1)!.trim() !== '') {
      if (out.length === 2) {
        out[1] = `${out[1]!.trimEnd()}…`;
        return out;
      }
      out.push('');
      used = 0;
    }
    if (cost > width) {
      out[out.length - 1] += `${[...word].slice(0, width - 1).join('')}…`;
      used = width;
      continue;
    }
    out[out.length - 1] += out.at(-1) === '' ? word.trimStart() : word;
    used += cost;
  }
  return out.filter((l) => l.trim() !== '');
}

export interface TileSource {
  id: number;
  name: string;
  brand: string;
  kind: string;
}

export function productTile(p: TileSource, view: number): string {
  const style = STYLE.get(p.kind) ?? DEFAULT_STYLE;
  const [from, to] = style.colors;
  const picto = PICTOGRAMS[style.pictogram] ?? PICTOGRAMS.shop!;
  const seed = (p.id * 2654435761) >>> 0;
  const angle = [
    [0, 0, 1, 1],
    [1, 0, 0, 1],
    [0, 1, 1, 0],
  ][(view - 1) % 3]!;
  const bubble = (i: number) => {
    const x = ((seed >> (i * 5)) % 360) + 20;
    const y = ((seed >> (i * 7)) % 200) + 20;
    return `<circle cx='${x}' cy='${y}' r='${40 + ((seed >> i) % 50)}' fill='#fff' opacity='.07'/>`;
  };
  const scale = view === 1 ? 1.9 : 1.5;
  const px = 200 - 50 * scale;
  const py = view === 1 ? 70 : 90;
  const nameLines = lines(p.name.replace(new RegExp(`^${p.brand}\\s*`), ''), 15);
  const text = nameLines
    .map(
      (l, i) =>
        `<text x='200' y='${332 + i * 30}' text-anchor='middle' fill='#fff' font-size='22' font-weight='600' ${FONT}>${esc(l)}</text>`,
    )
    .join('');
  const badge = view === 1 ? '正品保障' : view === 2 ? '细节展示' : '品质之选';
  return `<svg xmlns='http://www.w3.org/2000/svg' width='400' height='400' viewBox='0 0 400 400'>
<defs><linearGradient id='g' x1='${angle[0]}' y1='${angle[1]}' x2='${angle[2]}' y2='${angle[3]}'><stop offset='0' stop-color='${from}'/><stop offset='1' stop-color='${to}'/></linearGradient></defs>
<rect width='400' height='400' fill='url(#g)'/>${bubble(1)}${bubble(2)}${bubble(3)}
<ellipse cx='200' cy='${py + 100 * scale + 6}' rx='${36 * scale}' ry='8' fill='#000' opacity='.18'/>
<g transform='translate(${px} ${py}) scale(${scale})' fill='#fff'>${picto}</g>
<rect x='16' y='16' rx='14' height='28' width='${Math.max(56, [...p.brand].length * 15 + 24)}' fill='#fff' opacity='.92'/>
<text x='28' y='36' fill='${to}' font-size='15' font-weight='700' ${FONT}>${esc(p.brand)}</text>
<rect x='${400 - 96}' y='16' rx='14' height='28' width='80' fill='#000' opacity='.18'/>
<text x='${400 - 56}' y='36' text-anchor='middle' fill='#fff' font-size='14' ${FONT}>${badge}</text>
<rect y='300' width='400' height='100' fill='#000' opacity='.16'/>${text}
</svg>`;
}

export function shopLogo(shop: { id: number; shopName: string }): string {
  const palette = ['#c8102e', '#1f6feb', '#fa541c', '#13c2c2', '#722ed1', '#52c41a', '#eb2f96', '#faad14'];
  const color = palette[shop.id % palette.length];
  const initial = esc([...shop.shopName][0] ?? '店');
  return `<svg xmlns='http://www.w3.org/2000/svg' width='120' height='120' viewBox='0 0 120 120'>
<rect width='120' height='120' rx='24' fill='${color}'/><g transform='translate(20 14) scale(.8)' fill='#fff' opacity='.25'>${PICTOGRAMS.shop}</g>
<text x='60' y='76' text-anchor='middle' fill='#fff' font-size='44' font-weight='700' ${FONT}>${initial}</text></svg>`;
}
