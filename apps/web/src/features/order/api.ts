import {
  cartApi,
  catalogApi,
  type OrderTabKey,
  orderApi,
  type ProductSource,
  promiseApi,
} from '@sitemall/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ApiError, call, callFile } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import { type Payload, saveFile } from '../../api/request.ts';

/** Order, freight and payment calls (spec section 7), declared in `orderApi` (packages/contract/src/order.ts). */

/** What is being bought: selected cart lines, or one specification bought now. */
export type Purchase =
  | { kind: 'cart'; cartIds: number[] }
  | { kind: 'buyNow'; productId: number; specificationId: number; num: number };

/** A line on the submission page, with the server's current price. */
export interface CheckoutLine {
  key: string;
  productId: number;
  specificationId: number;
  name: string;
  image: string;
  specificationValue: string;
  price: number;
  num: number;
  source: ProductSource;
  isValid: boolean;
  msg: string;
}

export function purchaseFromQuery(params: URLSearchParams): Purchase | null {
  const cartIds = (params.get('cartIds') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  if (cartIds.length > 0) return { kind: 'cart', cartIds };
  const productId = Number(params.get('productId'));
  const specificationId = Number(params.get('specificationId'));
  const num = Number(params.get('num') || 1);
  if (
    Number.isInteger(productId) &&
    productId > 0 &&
    Number.isInteger(specificationId) &&
    specificationId > 0
  )
    return { kind: 'buyNow', productId, specificationId, num: Number.isInteger(num) && num > 0 ? num : 1 };
  return null;
}

/** The purchase as the fare and submit calls take it. */
export const purchasePayload = (purchase: Purchase): Payload =>
  purchase.kind === 'cart'
    ? { cartIds: purchase.cartIds.join(',') }
    : {
        productInfos: [
          { productId: purchase.productId, specificationId: purchase.specificationId, num: purchase.num },
        ],
      };

export const purchaseBasis = (purchase: Purchase): string => JSON.stringify(purchasePayload(purchase));

export const checkoutLinesQuery = (siteId: string, purchase: Purchase) =>
  queryOptions({
    queryKey: keys.order.checkout(siteId, purchaseBasis(purchase)),
    queryFn: async (): Promise<CheckoutLine[]> => {
      if (purchase.kind === 'cart') {
        const { obj } = await call(cartApi.getCartProduct, { siteId }, { repeat: true });
        return obj.list
          .filter((l) => purchase.cartIds.includes(l.id))
          .map((l) => ({
            key: String(l.id),
            productId: l.itemId,
            specificationId: l.specificationId,
            name: l.name,
            image: l.image,
            specificationValue: l.specificationValue,
            price: l.price,
            num: l.num,
            source: l.source,
            isValid: l.isValid,
            msg: l.msg,
          }));
      }
      const product = await call(catalogApi.productDetail, {
        siteId,
        productId: purchase.productId,
      });
      const spec = product.productSpecifications.find((s) => s.id === purchase.specificationId);
      if (!spec) throw new ApiError('商品规格不存在', 400);
      const isValid = product.isOnSale && spec.stock >= purchase.num;
      return [
        {
          key: `${product.id}-${spec.id}`,
          productId: product.id,
          specificationId: spec.id,
          name: product.name,
          image: product.images[0] ?? '',
          specificationValue: spec.specificationValue,
          price: spec.price,
          num: purchase.num,
          source: product.source,
          isValid,
          msg: isValid ? '' : product.isOnSale ? '库存不足' : '商品已下架',
        },
      ];
    },
    staleTime: 0,
    retry: false,
  });

export const fareQuery = (siteId: string, purchase: Purchase, addressId: number | null) =>
  queryOptions({
    queryKey: keys.order.fare(siteId, purchaseBasis(purchase), addressId ?? 0),
    queryFn: () =>
      call(orderApi.getFare, {
        siteId,
        ...purchasePayload(purchase),
        ...(addressId ? { addressId } : {}),
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const submitOrder = (
  siteId: string,
  input: {
    purchase: Purchase;
    addressId: number | null;
    requestId: string;
    remark: string;
    /** The vouchers the checkout applies (the voucher feature's choice). */
    accVoucherIds?: number[];
  },
) =>
  call(
    orderApi.submitOrder,
    {
      siteId,
      ...purchasePayload(input.purchase),
      ...(input.addressId ? { addressId: input.addressId } : {}),
      requestId: input.requestId,
      ...(input.remark ? { remark: input.remark } : {}),
      ...(input.accVoucherIds?.length ? { accVoucherIds: input.accVoucherIds.join(',') } : {}),
    },
    // The same requestId makes the same order: a repeated call is safe and must reach the server.
    { repeat: true },
  );

export const payInfoQuery = (siteId: string, orderNo: string) =>
  queryOptions({
    queryKey: keys.order.payInfo(siteId, orderNo),
    queryFn: () => call(orderApi.payOrderInfo, { siteId, orderNo }),
    staleTime: 0,
    retry: false,
  });

export const payOrder = (
  siteId: string,
  input: { orderNo: string; payWay: string; orderType: number; pointsAmount?: number },
) => call(orderApi.payOrder, { siteId, ...input });

/** The pay result and the latest WeChat code's state; the pay page polls it while a code is shown. */
export const payResultQuery = (siteId: string, orderNo: string) =>
  queryOptions({
    queryKey: keys.order.payResult(siteId, orderNo),
    queryFn: () => call(orderApi.payResultQuery, { siteId, orderNo }),
    staleTime: 0,
    retry: false,
  });

export const orderCountQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.order.count(siteId),
    queryFn: () => call(orderApi.orderCount, { siteId }),
    retry: false,
  });

export const orderListQuery = (siteId: string, tab: OrderTabKey, pageNum: number) =>
  queryOptions({
    queryKey: keys.order.list(siteId, tab, pageNum),
    queryFn: () => call(orderApi.myOrderList, { siteId, ...(tab === 'all' ? {} : { tab }), pageNum }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const orderDetailQuery = (siteId: string, orderNo: string) =>
  queryOptions({
    queryKey: keys.order.detail(siteId, orderNo),
    queryFn: () => call(orderApi.orderDetail, { siteId, orderNo }),
    retry: false,
  });

export const trackQuery = (siteId: string, orderNo: string) =>
  queryOptions({
    queryKey: keys.order.track(siteId, orderNo),
    queryFn: () => call(orderApi.trackDetail, { siteId, orderNo }),
    retry: false,
  });

/** The member's orders of one tab as an .xlsx file, saved by the browser. */
export async function exportOrders(siteId: string, tab: OrderTabKey): Promise<void> {
  saveFile(await callFile(orderApi.exportOrderList, { siteId, tab }, { fileName: '我的订单.xlsx' }));
}

export const cancelOrder = (siteId: string, orderNo: string) =>
  call(orderApi.cancelOrder, { siteId, orderNo }, { repeat: true });
export const confirmOrder = (siteId: string, orderNo: string) =>
  call(orderApi.confirmOrder, { siteId, orderNo }, { repeat: true });

/** When each source's goods arrive in the province (the promise calendar), for the checkout. */
export const promiseQuery = (siteId: string, sources: number[], provinceCode: string) =>
  queryOptions({
    queryKey: keys.promise(siteId, sources.join(','), provinceCode),
    queryFn: () => call(promiseApi.calendar, { siteId, sources: sources.join(','), provinceCode }),
    enabled: sources.length > 0,
    staleTime: 10 * 60_000,
    retry: false,
  });
