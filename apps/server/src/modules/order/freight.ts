import type { FareLine, FreightRule } from '@sitemall/contract';

/**
 * Freight rules per supply source (spec section 7: freight fare, total fare, freight list).
 * A source delivers free from a goods amount on, else charges its fee; remote provinces add
 * an extra; virtual goods (no address tab) never pay freight. Amounts in fen.
 */
export const REMOTE_PROVINCES = ['150000', '540000', '620000', '630000', '640000', '650000'];

interface RuleRow {
  fee: number;
  freeOver: number;
  remoteExtra: number;
}

const DEFAULT_RULE: RuleRow = { fee: 1000, freeOver: 9900, remoteExtra: 1500 };
/** Sources whose terms differ from the default (fresh goods and cakes travel cold, books are light). */
const RULES: Record<number, RuleRow> = {
  2: { fee: 800, freeOver: 4900, remoteExtra: 1200 },
  11: { fee: 1500, freeOver: 19_900, remoteExtra: 3000 },
  21: { fee: 1200, freeOver: 0, remoteExtra: 2000 },
  52: { fee: 1200, freeOver: 0, remoteExtra: 2000 },
  54: { fee: 600, freeOver: 3900, remoteExtra: 1000 },
};
const FREE: RuleRow = { fee: 0, freeOver: 0, remoteExtra: 0 };

export function ruleOf(source: number, hasAddress: boolean): RuleRow {
  if (!hasAddress) return FREE;
  return RULES[source] ?? DEFAULT_RULE;
}

export interface FareGroup {
  source: number;
  sourceName: string;
  hasAddress: boolean;
  goodsAmount: number;
}

/** The fare of one source's goods delivered to a province (provinceCode '' = not known yet). */
export function fareOf(group: FareGroup, provinceCode: string): number {
  const rule = ruleOf(group.source, group.hasAddress);
  if (!group.hasAddress) return 0;
  const base = rule.freeOver > 0 && group.goodsAmount >= rule.freeOver ? 0 : rule.fee;
  return base + (REMOTE_PROVINCES.includes(provinceCode) ? rule.remoteExtra : 0);
}

export function fareList(groups: readonly FareGroup[], provinceCode: string): FareLine[] {
  return groups.map((g) => ({
    source: g.source,
    sourceName: g.sourceName,
    goodsAmount: g.goodsAmount,
    fare: fareOf(g, provinceCode),
  }));
}

/** The rules a site's shoppers see, for the given sources. */
export function freightRules(
  sources: readonly { source: number; sourceName: string; hasAddress: boolean }[],
): FreightRule[] {
  return sources.map((s) => ({
    source: s.source,
    sourceName: s.sourceName,
    ...ruleOf(s.source, s.hasAddress),
    remoteProvinces: s.hasAddress ? REMOTE_PROVINCES : [],
  }));
}
