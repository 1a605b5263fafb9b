/**
 * Every TanStack Query key of the storefront, in one tree. Keys nest, so invalidating a prefix
 * refreshes everything under it: a feature that must refresh another feature's data (an order
 * empties the cart) names that feature's key here instead of retyping it.
 *
 * - `['identity', siteId, …]`: the member's own data; dropped at login and logout, refreshed as a
 *   whole when points move (a payment).
 * - `['site', siteId, …]`: public data of a site.
 * - the rest is not tied to a site or member.
 *
 * No token in any key: a token dropped by a 401/416 must not start a second call.
 */
const member = (siteId: string) => ['identity', siteId] as const;
const site = (siteId: string) => ['site', siteId] as const;
const catalog = (siteId: string) => [...site(siteId), 'catalog'] as const;
const cart = (siteId: string) => [...member(siteId), 'cart'] as const;
const order = (siteId: string) => [...member(siteId), 'order'] as const;
const address = (siteId: string) => [...member(siteId), 'address'] as const;
const points = (siteId: string) => [...member(siteId), 'points'] as const;

export const keys = {
  /** All members' data on every site (login and logout drop it). */
  identity: ['identity'] as const,
  /** Everything of the member on a site. */
  member,
  personalInfo: (siteId: string) => [...member(siteId), 'personalInfo'] as const,
  points: {
    balance: (siteId: string) => [...points(siteId), 'balance'] as const,
    bills: (siteId: string, filter: object) => [...points(siteId), 'bills', filter] as const,
  },
  cart: {
    /** Every cart query of the member (the count too). */
    all: cart,
    lines: (siteId: string) => [...cart(siteId), 'lines'] as const,
    count: (siteId: string) => [...cart(siteId), 'count'] as const,
    /** The device cart of a visitor on a guest-cart site. */
    guest: (siteId: string) => [...site(siteId), 'guestCart'] as const,
  },
  order: {
    all: order,
    checkout: (siteId: string, basis: string) => [...order(siteId), 'checkout', basis] as const,
    fare: (siteId: string, basis: string, addressId: number) =>
      [...order(siteId), 'fare', basis, addressId] as const,
    payInfo: (siteId: string, orderNo: string) => [...order(siteId), 'payInfo', orderNo] as const,
    payResult: (siteId: string, orderNo: string) => [...order(siteId), 'payResult', orderNo] as const,
    count: (siteId: string) => [...order(siteId), 'count'] as const,
    list: (siteId: string, tab: string, pageNum: number) => [...order(siteId), 'list', tab, pageNum] as const,
    detail: (siteId: string, orderNo: string) => [...order(siteId), 'detail', orderNo] as const,
    track: (siteId: string, orderNo: string) => [...order(siteId), 'track', orderNo] as const,
  },
  address: {
    all: address,
    list: (siteId: string) => [...address(siteId), 'list'] as const,
    districts: (parentCode: string) => ['districts', parentCode] as const,
  },
  // The member's data of the promotion and after-sales features: each builds its queries under
  // its own key, and a write refreshes that key as a whole.
  voucher: { all: (siteId: string) => [...member(siteId), 'voucher'] as const },
  packs: { all: (siteId: string) => [...member(siteId), 'packs'] as const },
  activity: {
    all: (siteId: string) => [...member(siteId), 'activity'] as const,
    /** Group buy: activities with their teams, a team, the member's group buys. */
    group: {
      all: (siteId: string) => [...member(siteId), 'activity', 'group'] as const,
      detail: (siteId: string, id?: number) =>
        [...member(siteId), 'activity', 'group', 'detail', id ?? 'all'] as const,
      team: (siteId: string, teamId: number) =>
        [...member(siteId), 'activity', 'group', 'team', teamId] as const,
      mine: (siteId: string, pageNum: number) =>
        [...member(siteId), 'activity', 'group', 'mine', pageNum] as const,
    },
  },
  /** The member's VIP level (member prices on tiles and detail). */
  vip: { level: (siteId: string) => [...member(siteId), 'vip', 'level'] as const },
  /** The member's customer-service messages with their replies. */
  serviceMessages: (siteId: string, pageNum: number) =>
    [...member(siteId), 'serviceMessages', pageNum] as const,
  afterSale: { all: (siteId: string) => [...member(siteId), 'afterSale'] as const },
  /** Cinema tickets and top-ups: the provider's catalogue is public data of the site. */
  movie: {
    catalogue: (siteId: string, what: string, ...ids: string[]) =>
      [...site(siteId), 'movie', what, ...ids] as const,
  },
  /** The promise calendar: delivery dates per source and province. */
  promise: (siteId: string, sources: string, provinceCode: string) =>
    [...site(siteId), 'promise', sources, provinceCode] as const,
  site: {
    config: (siteId: string) => [...site(siteId), 'config'] as const,
    pcInfo: (siteId: string) => [...site(siteId), 'pcInfo'] as const,
    hotline: (siteId: string, hotline: string) => [...site(siteId), 'hotline', hotline] as const,
    labels: (siteId: string) => [...site(siteId), 'labels'] as const,
    categories: (siteId: string, lableId: number) =>
      [...site(siteId), 'labels', lableId, 'categories'] as const,
  },
  catalog: {
    home: (siteId: string) => [...catalog(siteId), 'home'] as const,
    guessLike: (siteId: string, productId: number) => [...catalog(siteId), 'guessLike', productId] as const,
    search: (siteId: string, payload: object, time: string) =>
      [...catalog(siteId), 'search', payload, time] as const,
    special: (siteId: string, advertId: number, pageNum: number) =>
      [...catalog(siteId), 'special', advertId, pageNum] as const,
    product: (siteId: string, productId: number) => [...catalog(siteId), 'product', productId] as const,
    stock: (siteId: string, productId: number) =>
      [...catalog(siteId), 'product', productId, 'stock'] as const,
    list: (siteId: string, cateId: number, pageNum: number) =>
      [...catalog(siteId), 'list', cateId, pageNum] as const,
    shops: (siteId: string, pageNum: number) => [...catalog(siteId), 'shops', pageNum] as const,
    serviceChannels: (siteId: string) => [...catalog(siteId), 'serviceChannels'] as const,
    clientTips: (siteId: string) => [...catalog(siteId), 'clientTips'] as const,
    /** A customer-service channel's value as shown (decrypted hotlines). */
    serviceChannel: (value: string) => ['serviceChannel', value] as const,
  },
  /** One form's image code; `scope` keeps two forms' codes apart. */
  imageCode: (siteId: string | null, scope: string) => ['imageCode', siteId, scope] as const,
};
