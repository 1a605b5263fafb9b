import type { PromiseEntry } from '@sitemall/contract';
import dayjs from 'dayjs';
import { CHINA_TZ, chinaTime } from '../../lib/china-time';
import { sourceOf } from '../catalog/catalog.service';
import type { Site } from '../site/site.service';
import { REMOTE_PROVINCES } from './freight';

/**
 * The promise calendar (spec section 7: promise calendar): when goods of a supply source reach
 * a region, as the checkout shows it per child order. Virtual goods (no address tab) are
 * issued right after payment. Physical goods leave the warehouse the same day when ordered
 * before the cut-off (16:00 China time), else the next day, and take their source's days on
 * the road; remote provinces (the freight rules' list) two more.
 */

const CUT_OFF_HOUR = 16;
const REMOTE_EXTRA_DAYS = 2;
const DEFAULT_DAYS: [number, number] = [2, 4];
/** Days on the road per source, where they differ from the default (self-run and fresh ship from nearby). */
const ROAD_DAYS: Record<number, [number, number]> = {
  2: [1, 2],
  11: [1, 2],
  21: [1, 1],
  52: [1, 1],
  3: [3, 5],
  4: [3, 5],
};

export function promiseOf(site: Site, source: number, provinceCode: string, now = new Date()): PromiseEntry {
  const found = sourceOf(site, source, 1);
  const today = dayjs(now).tz(CHINA_TZ);
  const base = { source, sourceName: found.name, provinceCode };
  if (!found.hasAddressTab) {
    const day = chinaTime(now, 'YYYY-MM-DD');
    return { ...base, isInstant: true, earliest: day, latest: day, text: '支付后立即发放' };
  }
  const leaves = today.hour() >= CUT_OFF_HOUR ? 1 : 0;
  const remote = REMOTE_PROVINCES.includes(provinceCode) ? REMOTE_EXTRA_DAYS : 0;
  const [min, max] = ROAD_DAYS[source] ?? DEFAULT_DAYS;
  const earliest = today.add(leaves + min + remote, 'day');
  const latest = today.add(leaves + max + remote, 'day');
  const label = (d: dayjs.Dayjs) => `${d.month() + 1}月${d.date()}日`;
  return {
    ...base,
    isInstant: false,
    earliest: earliest.format('YYYY-MM-DD'),
    latest: latest.format('YYYY-MM-DD'),
    text:
      min === max && !remote
        ? `预计 ${label(earliest)} 送达`
        : `预计 ${label(earliest)}-${label(latest)} 送达`,
  };
}

/** The site's sources (its supplyConfig, else the common ones) or the asked ones, to a province. */
export function promiseCalendar(
  site: Site,
  input: { sources?: number[] | string; provinceCode?: string },
  now = new Date(),
): PromiseEntry[] {
  const asked =
    input.sources === undefined || input.sources === ''
      ? site.row.supplyConfig.filter((c) => !c.excludeSupply).map((c) => c.source)
      : Array.isArray(input.sources)
        ? input.sources
        : input.sources.split(',').filter(Boolean).map(Number);
  const sources = [...new Set(asked.length > 0 ? asked : [1, 2])];
  return sources.map((s) => promiseOf(site, s, input.provinceCode ?? '', now));
}
