import { type MallSite, type SiteConfig, siteApi } from '@sitemall/contract';
import { configureRequest, resetRequest } from '../api/request.ts';

/**
 * The network of a component test: every call of the storefront goes through `request`, whose
 * fetch is replaced here by a table of answers keyed by path (without /front-mall-api). The
 * components, their queries and the request layer all run as in the browser.
 */

export interface Sent {
  path: string;
  /** The payload as the server reads it: form, urlencoded, JSON or query fields. */
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** What a handler answers: `data` for a success, or `refuse(code, msg)`. */
export type Handler = (body: Record<string, unknown>, sent: Sent) => unknown;

const REFUSAL = Symbol('refusal');
interface Refusal {
  [REFUSAL]: true;
  code: number;
  msg: string;
}

/** An envelope with this code and msg instead of a success (e.g. refuse(500, '请选择收货地址')). */
export const refuse = (code: number, msg: string): Refusal => ({ [REFUSAL]: true, code, msg });

const isRefusal = (value: unknown): value is Refusal =>
  !!value && typeof value === 'object' && REFUSAL in value;

async function bodyOf(url: URL, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const { body } = init;
  if (body instanceof FormData) return Object.fromEntries(body.entries());
  if (typeof body === 'string') {
    const type = (init.headers as Record<string, string> | undefined)?.['content-type'] ?? '';
    if (type.includes('urlencoded')) return Object.fromEntries(new URLSearchParams(body));
    return JSON.parse(body) as Record<string, unknown>;
  }
  return Object.fromEntries(url.searchParams);
}

/** A site as getSiteConfig answers it: site 719's switches unless told otherwise. */
export function siteConfig(site: Partial<MallSite> = {}): SiteConfig {
  return {
    code: 200,
    mallSite: {
      id: 719,
      siteName: '测试商城',
      hotline: '4008001234',
      spareHotline: '',
      loginWay: 1,
      paywayConf: ['ye'],
      cashUnit: '积分',
      configJson: { returnBar: 1, hideServicePhone: 'N', hideExit: 'N' },
      customServicePcSwitch: 0,
      isUsable: 1,
      loginOrder: '1',
      dingtalkAuthSwitch: 0,
      supplyConfig: [],
      homePageModes: [],
      ...site,
    },
    advancedConfig: { logo: '', primaryColor: '#e1251b', slogan: '' },
    mallSiteDistrict: [],
  };
}

/**
 * Installs the fake network. The site's configuration is answered unless `routes` says
 * otherwise; a call nobody answers fails the test with its path.
 */
export function fakeServer(routes: Record<string, Handler>, site: Partial<MallSite> = {}) {
  const sent: Sent[] = [];
  const unanswered: string[] = [];
  const table: Record<string, Handler> = {
    [siteApi.getSiteConfig.path]: () => siteConfig(site),
    [siteApi.pcInfo.path]: () => refuse(500, ''),
    ...routes,
  };
  resetRequest();
  configureRequest({
    navigate: () => {},
    toast: () => {},
    fetch: async (input, init) => {
      const url = new URL(String(input), 'http://mall.test');
      const path = url.pathname.replace(/^\/front-mall-api/, '');
      const call: Sent = {
        path,
        body: await bodyOf(url, init),
        headers: { ...(init?.headers as Record<string, string> | undefined) },
      };
      sent.push(call);
      const handler = table[path];
      if (!handler) {
        unanswered.push(path);
        return Response.json({ code: 404, msg: `no fake answer for ${path}`, success: false, data: null });
      }
      const answer = await handler(call.body, call);
      return Response.json(
        isRefusal(answer)
          ? { code: answer.code, msg: answer.msg, success: false, data: null }
          : { code: 200, msg: '', success: true, data: answer ?? null },
      );
    },
  });
  return {
    /** Every call made, in order. */
    sent,
    /** The payloads sent to one path. */
    bodiesOf: (path: string) => sent.filter((s) => s.path === path).map((s) => s.body),
    /** Paths called that had no answer (a test asserts this stays empty). */
    unanswered,
    /** Replaces or adds answers while the test runs. */
    answer(path: string, handler: Handler) {
      table[path] = handler;
    },
  };
}
