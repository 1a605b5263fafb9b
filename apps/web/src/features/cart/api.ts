import { type CartItem, type CombinedStock, cartApi, catalogApi, MAX_CART_NUM } from '@sitemall/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken } from '../../site/storage.ts';
import { cartPieces, isBuyable, specKey } from './lib/cart.ts';
import {
  addGuestLine,
  clearGuestCart,
  guestLineId,
  mergePayload,
  readGuestCart,
  removeGuestLines,
} from './lib/guestCart.ts';
import { rememberPrices } from './lib/seenPrices.ts';
import type { CartLine, GuestLine, ProductInfo } from './types.ts';

/**
 * Cart calls (spec section 7: getCartProduct, submitCart; quantities saved debounced 600 ms;
 * remove, count and the guest-cart merge). Contract: packages/contract/src/cart.ts.
 */

export const memberCartQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.cart.lines(siteId),
    queryFn: async () => (await call(cartApi.getCartProduct, { siteId }, { repeat: true })).obj.list,
    // Prices and stock are re-checked on every visit to the cart.
    staleTime: 0,
    retry: false,
  });

export const cartCountQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.cart.count(siteId),
    // A header badge never sends anyone to login; the pages that need a login do.
    queryFn: async () => (await call(cartApi.cartCount, { siteId }, { unReplaceLogin: true })).count,
    retry: false,
  });

/** A guest line shown like a server line; stock and sale state come from combinedStock. */
function guestAsLine(line: GuestLine, stock: CombinedStock['list'][number] | undefined): CartItem {
  const shown = {
    id: guestLineId(line),
    itemId: line.productId,
    num: line.num,
    specificationId: line.specificationId,
    specificationValue: line.specificationValue,
    productSpecifications: [],
    name: line.name,
    image: line.image,
    orderType: 0,
    source: line.source,
    price: line.price,
    stock: stock ? stock.stock : line.num,
    limitNum: 0,
    isOnSale: stock ? stock.isOnSale : true,
    isSelected: true,
  };
  const isValid = isBuyable(shown);
  return { ...shown, isValid, msg: isValid ? '' : shown.isOnSale ? '库存不足' : '商品已下架' };
}

export const guestCartQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.cart.guest(siteId),
    queryFn: async (): Promise<CartLine[]> => {
      const lines = readGuestCart(siteId);
      if (lines.length === 0) return [];
      const infos = lines.map(({ productId, specificationId, num }) => ({ productId, specificationId, num }));
      // Without live stock the lines still show, as the device remembers them.
      const stock = await call(
        catalogApi.combinedStock,
        { siteId, productInfos: infos },
        { repeat: true },
      ).catch(() => null);
      return lines.map((line) =>
        guestAsLine(
          line,
          stock?.list.find(
            (s) => s.productId === line.productId && s.specificationId === line.specificationId,
          ),
        ),
      );
    },
    staleTime: 0,
  });

/** Whether this visitor's cart lives on the device (guest-cart site, not logged in). */
export function useIsGuestCart(): boolean {
  const { site } = useSite();
  return !getToken() && site?.configJson.guestCart === 'Y';
}

/** The cart of the member, or the device cart of a visitor on a guest-cart site. */
export function useCart() {
  const { siteId } = useSite();
  const guest = useIsGuestCart();
  const member = !!getToken();
  const memberCart = useQuery({ ...memberCartQuery(siteId ?? ''), enabled: !!siteId && member });
  const guestCart = useQuery({ ...guestCartQuery(siteId ?? ''), enabled: !!siteId && guest });
  return { guest, member, query: guest ? guestCart : memberCart };
}

/** The header count (sum of quantities): members from the server, visitors from the device. */
export function useCartCount(): number {
  const { siteId } = useSite();
  const guest = useIsGuestCart();
  const member = !!getToken();
  const count = useQuery({ ...cartCountQuery(siteId ?? ''), enabled: !!siteId && member });
  const guestCart = useQuery({ ...guestCartQuery(siteId ?? ''), enabled: !!siteId && guest });
  if (guest) return cartPieces(guestCart.data ?? []);
  return member ? (count.data ?? 0) : 0;
}

export interface AddToCartInput extends ProductInfo {
  /** Shown in a guest cart until the visitor logs in; its price is remembered as "seen". */
  snapshot: Pick<GuestLine, 'name' | 'image' | 'price' | 'source'>;
}

export type AddResult = { ok: true } | { ok: false; msg: string; needsLogin?: boolean };

const infoOf = (input: ProductInfo): ProductInfo => ({
  productId: input.productId,
  specificationId: input.specificationId,
  specificationValue: input.specificationValue,
  num: input.num,
});

/** '加入购物车' (spec sections 5, 8): an existing line grows; a failure answers the server's msg. */
export function useAddToCart(): (input: AddToCartInput) => Promise<AddResult> {
  const { siteId } = useSite();
  const guest = useIsGuestCart();
  const queryClient = useQueryClient();
  return useCallback(
    async (input) => {
      if (!siteId) return { ok: false, msg: '站点未知' };
      if (!guest && !getToken()) return { ok: false, msg: '请先登录', needsLogin: true };
      if (guest) {
        addGuestLine(siteId, { ...input.snapshot, ...infoOf(input) });
        await queryClient.invalidateQueries({ queryKey: keys.cart.guest(siteId) });
      } else {
        const refusal = await call(
          cartApi.submitCart,
          { siteId, productInfo: [infoOf(input)] },
          { repeat: true },
        )
          .then(() => null)
          .catch((error: Error) => error.message || '加入购物车失败');
        if (refusal) return { ok: false, msg: refusal };
        await queryClient.invalidateQueries({ queryKey: keys.cart.all(siteId) });
      }
      rememberPrices(siteId, { [specKey(input.productId, input.specificationId)]: input.snapshot.price });
      return { ok: true };
    },
    [guest, queryClient, siteId],
  );
}

/** Saves quantities of member lines, one updateNum per changed line (the page debounces). */
export async function saveQuantities(siteId: string, changes: Map<number, number>): Promise<void> {
  for (const [id, num] of changes) await call(cartApi.updateNum, { siteId, id, num }, { repeat: true });
}

export const removeLines = (siteId: string, ids: number[]) =>
  call(cartApi.deleteCart, { siteId, ids: ids.join(',') }, { repeat: true });

export const CART_MAX_NUM = MAX_CART_NUM;

/** A line as the device cart names it. */
export const guestKeyOf = (line: CartLine) => ({
  productId: line.itemId,
  specificationId: line.specificationId,
});

/**
 * Removes lines: from the device for a visitor, from the server for a member. The cart (and the
 * header count) is re-read before the removal counts as done.
 */
export function useRemoveCartLines() {
  const { siteId } = useSite();
  const guest = useIsGuestCart();
  const queryClient = useQueryClient();
  const sid = siteId ?? '';
  return useMutation({
    mutationFn: async (targets: CartLine[]) => {
      if (guest) removeGuestLines(siteId, targets.map(guestKeyOf));
      else
        await removeLines(
          sid,
          targets.map((t) => t.id),
        );
    },
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: guest ? keys.cart.guest(sid) : keys.cart.all(sid) }),
  });
}

/**
 * After a login on a guest-cart site: the device's lines go to the member's cart through the
 * server's merge call (quantities summed), then the device copy is cleared. A failed merge keeps
 * the device copy for the next login so nothing is lost.
 */
export async function mergeGuestCart(siteId: string | null): Promise<void> {
  const lines = readGuestCart(siteId);
  if (!siteId || lines.length === 0) return;
  try {
    await call(cartApi.mergeCart, { siteId, productInfos: mergePayload(lines) }, { repeat: true });
    clearGuestCart(siteId);
  } catch {
    // Kept on the device.
  }
}
