/**
 * Supply sources (spec section 3): a source code names where goods come from. A site may
 * rename any of them through its supplyConfig; hasAddressTab says whether the address tab is
 * shown for goods of that source (virtual goods need no delivery address).
 */
export interface SourceType {
  source: number;
  name: string;
  hasAddressTab: boolean;
}

const physical = (source: number, name: string): SourceType => ({ source, name, hasAddressTab: true });
const virtual = (source: number, name: string): SourceType => ({ source, name, hasAddressTab: false });

export const SOURCE_TYPES: readonly SourceType[] = [
  physical(1, '电商直供'),
  physical(2, '自营'),
  physical(3, '第三方零售'),
  physical(4, '第三方严选'),
  virtual(7, '平台虚拟商品'),
  physical(9, '其他来源'),
  physical(10, '平台精选'),
  physical(102, '平台精选'),
  physical(11, '生鲜电商'),
  physical(17, '合作供应'),
  physical(18, '合作供应'),
  physical(19, '食品礼品'),
  virtual(20, '电影'),
  virtual(56, '电影'),
  virtual(57, '电影'),
  physical(21, '蛋糕'),
  physical(52, '蛋糕'),
  virtual(22, '虚拟精选'),
  virtual(23, '微信立减金'),
  virtual(26, '直充'),
  virtual(27, '支付宝红包'),
  physical(28, '门店商品'),
  physical(54, '图书'),
  physical(55, '商超'),
  virtual(58, '跑腿配送'),
  virtual(59, '跑腿配送'),
  virtual(60, '跑腿配送'),
  virtual(61, '跑腿配送'),
  virtual(62, '跑腿配送'),
  physical(104, '平台商品2.0'),
];

export interface SupplyConfigEntry {
  source: number;
  type: number;
  excludeSupply: boolean;
  name: string;
}

/** The display name of a source on a site: the site's own name for it, else the default. */
export function sourceName(
  supplyConfig: readonly SupplyConfigEntry[],
  source: number,
  type?: number,
): SourceType | undefined {
  const base = SOURCE_TYPES.find((s) => s.source === source);
  const own = supplyConfig.find((c) => c.source === source && (type === undefined || c.type === type));
  if (!base && !own) return undefined;
  return { source, name: own?.name ?? base?.name ?? '', hasAddressTab: base?.hasAddressTab ?? true };
}
