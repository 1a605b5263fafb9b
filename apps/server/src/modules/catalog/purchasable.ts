import { CART_MSG } from '@sitemall/contract';

/** What the rule needs to know of a specification as one site sells it now. */
export interface PurchasableSpec {
  productId: number;
  isOnSale: boolean;
  stock: number;
  /** Most pieces of the product in one order; 0: no limit. */
  limitNum: number;
}

export interface WantedLine {
  productId: number;
  /** Pieces of this specification. */
  num: number;
  /** Pieces of the product in the whole order, all its specifications (default `num`). */
  perOrder?: number;
}

/**
 * The one rule of whether a line can be bought now: on sale on this site, enough stock of the
 * specification, and no more of the product per order than its purchase limit. Cart, order
 * submission, the limit check and batch orders all ask it; '' means it can be bought.
 * `stock: false` leaves stock to the submission itself, which takes it atomically.
 */
export function purchaseProblem(
  spec: PurchasableSpec | undefined,
  line: WantedLine,
  options: { stock?: boolean; offSale?: string } = {},
): string {
  if (!spec || spec.productId !== line.productId || !spec.isOnSale)
    return options.offSale ?? CART_MSG.notOnSale;
  if (options.stock !== false) {
    if (spec.stock <= 0) return '该规格已售罄';
    if (spec.stock < line.num) return `库存不足，仅剩 ${spec.stock} 件`;
  }
  const perOrder = line.perOrder ?? line.num;
  if (spec.limitNum > 0 && perOrder > spec.limitNum) return `该商品每单限购 ${spec.limitNum} 件`;
  return '';
}
