/** Relative luminance of an sRGB colour (WCAG 2.1). */
export function luminance([r, g, b]: readonly [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours. */
export function contrast(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const parseHex = (hex: string): [number, number, number] | null => {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const n = Number.parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

const toHex = (rgb: readonly number[]) =>
  `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The darkest grey text in the primary colour sits on (the top bar); it must read there as on white. */
const PAGE_GREY: [number, number, number] = [240, 240, 240];
const WHITE: [number, number, number] = [255, 255, 255];
/** WCAG AA for normal text. */
const AA = 4.5;

/**
 * The site's primary colour, darkened just enough that white text on it and it as text on white
 * or the page grey reach WCAG AA (4.5:1). A site's brand colour stays recognisable: only its
 * lightness moves, and a colour that already passes is returned unchanged.
 */
export function accessiblePrimary(hex: string): string {
  let rgb = parseHex(hex);
  if (!rgb) return hex;
  const passes = (c: [number, number, number]) => contrast(c, WHITE) >= AA && contrast(c, PAGE_GREY) >= AA;
  if (passes(rgb)) return hex;
  for (let i = 0; i < 40 && !passes(rgb); i += 1) rgb = rgb.map((c) => c * 0.96) as [number, number, number];
  return toHex(rgb);
}
