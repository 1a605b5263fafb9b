import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
  replace,
} from 'react-router';
import { Root } from '../layout/Root.tsx';
import { PageLoading, RouteError } from '../layout/RouteError.tsx';
import { siteConfigQuery } from '../site/api.ts';
import { addSiteId, loginRouteFor, withSiteId } from '../site/routing.ts';
import { getLoginWay, getSiteId, syncSiteId } from '../site/storage.ts';
import { lazyPart } from './lazyPart.ts';
import type { RouteMeta } from './meta.ts';
import { payResultTarget } from './payResult.ts';
import type { Prefetch } from './prefetch.ts';

export const BASENAME = '/shoppingmall';

/** The address of a loader's request as an app path (without the basename). */
export function appUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname.startsWith(BASENAME)) url.pathname = url.pathname.slice(BASENAME.length) || '/';
  return url;
}

const siteIdOf = (request: Request): string | null =>
  new URL(request.url).searchParams.get('siteId') || getSiteId();

/**
 * The site in the address becomes the stored site; a token of another site is dropped (section 4).
 * The site's configuration, which every page waits for, is asked for here, while the first
 * page's modules are still loading, not once they have drawn the site's frame (not awaited), and
 * so is what the page draws first (prefetch.ts).
 */
const rootLoader =
  (queryClient: QueryClient) =>
  ({ request }: LoaderFunctionArgs) => {
    syncSiteId(new URL(request.url).searchParams.get('siteId'));
    const siteId = siteIdOf(request);
    if (siteId) {
      void queryClient.prefetchQuery(siteConfigQuery(siteId));
      const url = appUrl(request);
      PREFETCH.get(url.pathname)?.()
        .then((prefetch) => prefetch(queryClient, siteId, url.searchParams))
        .catch(() => undefined);
    }
    return null;
  };

/** "Adds siteId" (section 2): put the stored siteId into an address that lacks it. */
function addsSiteIdLoader({ request }: LoaderFunctionArgs) {
  const target = addSiteId(appUrl(request), getSiteId());
  if (target) throw replace(target);
  return null;
}

type PageModule = { Component: ComponentType };

interface PageSpec {
  path: string;
  meta: RouteMeta;
  load: () => Promise<PageModule>;
  addsSiteId?: boolean;
  /** What the page draws first, started by the root loader (prefetch.ts). */
  prefetch?: () => Promise<Prefetch>;
}

/** The route table of spec section 2 (pages drawn inside the mall layout). */
const MALL_PAGES: PageSpec[] = [
  {
    path: 'home',
    meta: { part: 'home', title: '首页' },
    addsSiteId: true,
    load: () => import('./home.tsx'),
    prefetch: () => import('./prefetch.ts').then((m) => m.home),
  },
  {
    path: 'personalCenter',
    meta: { part: 'personalCenter', title: '个人中心' },
    addsSiteId: true,
    load: () => import('./personalCenter.tsx'),
  },
  {
    path: 'myAddress',
    meta: { part: 'myAddress', title: '收货地址' },
    addsSiteId: true,
    load: () => import('./myAddress.tsx'),
  },
  {
    path: 'billDetails',
    meta: { part: 'billDetails', title: '账单明细' },
    addsSiteId: true,
    load: () => import('./billDetails.tsx'),
  },
  {
    path: 'myOrder',
    meta: { part: 'myOrder', title: '我的订单' },
    addsSiteId: true,
    load: () => import('./myOrder.tsx'),
  },
  {
    path: 'myVoucher',
    meta: { part: 'myVoucher', title: '我的优惠券' },
    addsSiteId: true,
    load: () => import('./myVoucher.tsx'),
  },
  {
    path: 'myCards',
    meta: { part: 'myCards', title: '我的卡包' },
    addsSiteId: true,
    load: () => import('./myCards.tsx'),
  },
  {
    path: 'voucherCenter',
    meta: { part: 'voucherCenter', title: '领券中心' },
    addsSiteId: true,
    load: () => import('./voucherCenter.tsx'),
  },
  {
    path: 'batchOrder',
    meta: { part: 'batchOrder', title: '批量下单' },
    addsSiteId: true,
    load: () => import('./batchOrder.tsx'),
  },
  {
    path: 'movie',
    meta: { part: 'movie', title: '电影票' },
    addsSiteId: true,
    load: () => import('./movie.tsx'),
  },
  {
    path: 'topup',
    meta: { part: 'topup', title: '话费充值' },
    addsSiteId: true,
    load: () => import('./topup.tsx'),
  },
  {
    path: 'orderDetail',
    meta: { part: 'orderDetail', title: '订单详情' },
    load: () => import('./orderDetail.tsx'),
  },
  {
    path: 'afterSaleList',
    meta: { part: 'afterSaleList', title: '我的售后' },
    addsSiteId: true,
    load: () => import('./afterSaleList.tsx'),
  },
  {
    path: 'afterSaleDetail',
    meta: { part: 'afterSaleDetail', title: '售后详情' },
    load: () => import('./afterSaleDetail.tsx'),
  },
  {
    path: 'productDetails',
    meta: { part: 'productDetails', title: '商品详情', breadcrumb: 'own' },
    load: () => import('./productDetails.tsx'),
    prefetch: () => import('./prefetch.ts').then((m) => m.productDetails),
  },
  {
    path: 'shoppingCart',
    meta: { part: 'shoppingCart', title: '购物车', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./shoppingCart.tsx'),
  },
  {
    path: 'orderSubmission',
    meta: { part: 'orderSubmission', title: '提交订单', breadcrumb: true },
    load: () => import('./orderSubmission.tsx'),
  },
  { path: 'success', meta: { part: 'success', title: '下单成功' }, load: () => import('./success.tsx') },
  {
    path: 'searchList',
    meta: { part: 'searchList', title: '商品搜索', breadcrumb: true },
    load: () => import('./searchList.tsx'),
    prefetch: () => import('./prefetch.ts').then((m) => m.searchList),
  },
  {
    path: 'specialList',
    meta: { part: 'specialList', title: '专题活动', breadcrumb: true },
    load: () => import('./specialList.tsx'),
  },
  {
    path: 'selectPayWay',
    meta: { part: 'selectPayWay', title: '选择支付方式' },
    load: () => import('./selectPayWay.tsx'),
  },
  {
    path: 'businessSettlement',
    meta: { part: 'businessSettlement', title: '商家入驻', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./businessSettlement.tsx'),
  },
  {
    path: 'seckill',
    meta: { part: 'seckill', title: '限时秒杀', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./seckill.tsx'),
  },
  {
    path: 'lottery',
    meta: { part: 'lottery', title: '幸运大转盘', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./lottery.tsx'),
  },
  {
    path: 'groupBuy',
    meta: { part: 'groupBuy', title: '拼团', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./groupBuy.tsx'),
  },
  {
    path: 'groupTeam',
    meta: { part: 'groupTeam', title: '团详情', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./groupTeam.tsx'),
  },
  {
    path: 'myGroupBuy',
    meta: { part: 'myGroupBuy', title: '我的拼团', breadcrumb: true },
    load: () => import('./myGroupBuy.tsx'),
  },
  {
    path: 'myBenefits',
    meta: { part: 'myBenefits', title: '我的权益', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./myBenefits.tsx'),
  },
  {
    path: 'bargain',
    meta: { part: 'bargain', title: '好友砍价', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./bargain.tsx'),
  },
  {
    path: 'bargainHelp',
    meta: { part: 'bargainHelp', title: '帮好友砍价', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./bargainHelp.tsx'),
  },
  {
    path: 'shopStreet',
    meta: { part: 'shopStreet', title: '店铺街', breadcrumb: true },
    addsSiteId: true,
    load: () => import('./shopStreet.tsx'),
  },
  {
    path: 'platformCustomerService',
    meta: { part: 'platformCustomerService', title: '商城客服' },
    addsSiteId: true,
    load: () => import('./platformCustomerService.tsx'),
  },
  { path: '*', meta: { part: 'notFound', title: '页面不存在' }, load: () => import('./NotFound.tsx') },
];

/** The prefetches of the mall's pages by app path (the root loader's look-up). */
const PREFETCH = new Map(
  MALL_PAGES.flatMap(({ path, prefetch }) => (prefetch ? [[`/${path}` as string, prefetch] as const] : [])),
);

/** Login pages and register: no header or footer. */
const BARE_PAGES: PageSpec[] = [
  { path: 'PwdLogin', meta: { part: 'PwdLogin', title: '密码登录' }, load: () => import('./PwdLogin.tsx') },
  {
    path: 'CodeLogin',
    meta: { part: 'CodeLogin', title: '短信验证码登录' },
    load: () => import('./CodeLogin.tsx'),
  },
  {
    path: 'AccountLogin',
    meta: { part: 'AccountLogin', title: '账号登录' },
    load: () => import('./AccountLogin.tsx'),
  },
  {
    path: 'register',
    meta: { part: 'register', title: '注册' },
    addsSiteId: true,
    load: () => import('./register.tsx'),
  },
];

const toRoute = ({ path, meta, load, addsSiteId }: PageSpec): RouteObject => ({
  path,
  handle: meta,
  ...(addsSiteId ? { loader: addsSiteIdLoader } : {}),
  lazy: lazyPart(meta.part, load),
});

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  /** /login: to the login page of the site's login mode, from storage or the site config (section 2). */
  async function loginLoader({ request }: LoaderFunctionArgs) {
    const siteId = siteIdOf(request);
    let loginWay = getLoginWay(siteId);
    if (loginWay === null && siteId) {
      try {
        loginWay = (await queryClient.fetchQuery(siteConfigQuery(siteId))).mallSite.loginWay;
      } catch {
        loginWay = null;
      }
    }
    // Without a known mode, password login is the general-purpose page.
    throw replace(loginRouteFor(loginWay ?? 1, siteId));
  }

  function payResultLoader({ request }: LoaderFunctionArgs) {
    throw replace(withSiteId(payResultTarget(), siteIdOf(request)));
  }

  return [
    {
      id: 'root',
      path: '/',
      loader: rootLoader(queryClient),
      element: <Root />,
      HydrateFallback: PageLoading,
      errorElement: <RouteError />,
      children: [
        { index: true, loader: ({ request }) => redirect(`/home${new URL(request.url).search}`) },
        { path: 'login', loader: loginLoader },
        { path: 'payresultvalid', loader: payResultLoader },
        {
          // The site's theme and what every page of a site runs (layout/Frame.tsx); it and the
          // layouts load with the first page, in parallel with it, not in the entry script.
          lazy: lazyPart('frame', () => import('../layout/Frame.tsx')),
          children: [
            {
              lazy: lazyPart('mallLayout', () =>
                import('../layout/MallLayout.tsx').then((m) => ({ Component: m.MallLayout })),
              ),
              children: [{ errorElement: <RouteError />, children: MALL_PAGES.map(toRoute) }],
            },
            {
              lazy: lazyPart('bareLayout', () =>
                import('../layout/MallLayout.tsx').then((m) => ({ Component: m.BareLayout })),
              ),
              children: [{ errorElement: <RouteError />, children: BARE_PAGES.map(toRoute) }],
            },
          ],
        },
      ],
    },
  ];
}

export const createAppRouter = (queryClient: QueryClient) =>
  createBrowserRouter(createRoutes(queryClient), { basename: BASENAME });
