import type { CartItem, ProductSource } from '@sitemall/contract';

/** A cart line as the page shows it (contract CartItem: live price, stock, validity). */
export type CartLine = CartItem;

/** A line of the cart as it is sent (spec section 3: productId, num, specificationId, specificationValue). */
export interface ProductInfo {
  productId: number;
  specificationId: number;
  specificationValue: string;
  num: number;
}

/** What is kept of a visitor's line on the device (guest cart, spec section 6). */
export interface GuestLine extends ProductInfo {
  name: string;
  image: string;
  price: number;
  source: ProductSource;
  addedAt: number;
}
