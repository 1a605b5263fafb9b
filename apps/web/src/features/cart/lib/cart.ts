import type { CartLine } from '../types.ts';

type StockState = Pick<CartLine, 'isOnSale' | 'stock' | 'num' | 'limitNum'> & { isValid?: boolean };

export const isSoldOut = (line: Pick<CartLine, 'isOnSale' | 'stock'>): boolean =>
  !line.isOnSale || line.stock <= 0;

export const isShort = (line: Pick<CartLine, 'isOnSale' | 'stock' | 'num'>): boolean =>
  !isSoldOut(line) && line.stock < line.num;

export const isOverLimit = (line: Pick<CartLine, 'limitNum' | 'num'>): boolean =>
  line.limitNum > 0 && line.num > line.limitNum;

/**
 * A line can be checked out when the server judged it valid (isValid, for the saved quantity)
 * and, for a quantity edited on the page but not yet saved, it is on sale, its stock covers the
 * quantity and the limit allows it.
 */
export const isBuyable = (line: StockState): boolean =>
  line.isValid !== false && !isSoldOut(line) && !isShort(line) && !isOverLimit(line);

/** The most a line may be set to (stock, purchase limit, the cart maximum). */
export const maxNum = (line: Pick<CartLine, 'stock' | 'limitNum'>, cartMax: number): number =>
  Math.max(1, Math.min(line.stock, line.limitNum > 0 ? line.limitNum : cartMax, cartMax));

/** Price moved since it was last seen (added or last shown): positive = dearer; 0 when unknown. */
export const priceChange = (price: number, seen: number | undefined): number =>
  seen === undefined ? 0 : price - seen;

export interface CartGroup<L extends CartLine = CartLine> {
  /** `${source}-${type}` */
  key: string;
  name: string;
  lines: L[];
}

export const sourceKey = (line: Pick<CartLine, 'source'>): string =>
  `${line.source.source}-${line.source.type}`;

/** The key of a product specification (the same line in a guest cart and in a member's cart). */
export const specKey = (productId: number, specificationId: number): string =>
  `${productId}-${specificationId}`;

/** Lines grouped per supply source (one child order each), groups in order of first appearance. */
export function groupBySource<L extends CartLine>(lines: readonly L[]): CartGroup<L>[] {
  const groups = new Map<string, CartGroup<L>>();
  for (const line of lines) {
    const key = sourceKey(line);
    let group = groups.get(key);
    if (!group) {
      group = { key, name: line.source.name, lines: [] };
      groups.set(key, group);
    }
    group.lines.push(line);
  }
  return [...groups.values()];
}

export interface CartTotals {
  /** Selected buyable lines. */
  lineCount: number;
  /** Pieces in the selected buyable lines. */
  pieces: number;
  /** Fen. */
  amount: number;
}

/** Totals of the selected lines; sold-out or short lines never count. */
export function cartTotals(lines: readonly CartLine[], selected: ReadonlySet<number>): CartTotals {
  let lineCount = 0;
  let pieces = 0;
  let amount = 0;
  for (const line of lines) {
    if (!selected.has(line.id) || !isBuyable(line)) continue;
    lineCount += 1;
    pieces += line.num;
    amount += line.price * line.num;
  }
  return { lineCount, pieces, amount };
}

/** Selection helpers: ids of the buyable lines among `lines`. */
export const buyableIds = (lines: readonly CartLine[]): number[] => lines.filter(isBuyable).map((l) => l.id);

export function isAllSelected(lines: readonly CartLine[], selected: ReadonlySet<number>): boolean {
  const ids = buyableIds(lines);
  return ids.length > 0 && ids.every((id) => selected.has(id));
}

/** Select or clear every buyable line of `lines`, keeping the rest of the selection. */
export function toggleAll(
  lines: readonly CartLine[],
  selected: ReadonlySet<number>,
  on: boolean,
): Set<number> {
  const next = new Set(selected);
  for (const id of buyableIds(lines)) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** Cart item count of the header: pieces in the cart. */
export const cartPieces = (lines: readonly { num: number }[]): number =>
  lines.reduce((sum, l) => sum + l.num, 0);
