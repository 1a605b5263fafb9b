import { catalogApi, identityApi, orderApi, siteApi } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { encryptSecret } from '../src/modules/identity/crypto';
import { CONSOLE_SCENARIOS } from './console';
import {
  BENCH_MEMBERS,
  type LoopResult,
  loginBuyers,
  type OrderBench,
  type OrderSeed,
  seedOrderBench,
  submitAndPayLoop,
} from './orders';
import { availableVouchers, submitAndPayWithVoucher } from './vouchers';

/** The storefront API's full path of an endpoint of the table. */
const front = (e: { path: string }) => `/front-mall-api${e.path}`;

/** What a path is compared with, measured in the same run (run.ts). */
export type Ceiling =
  | 'healthz'
  | 'bare Fastify'
  | 'bare Fastify POST'
  | 'raw pg pk read'
  | 'order tx (client)'
  | 'order 1 statement'
  | 'order 1 statement hot';

/** Issue 16's goal for a path: a ratio to its ceiling, or a latency with one connection. */
export type Goal = { vs: Ceiling; atLeast: number } | { p95AtMostMs: number };

/** The hot paths each issue asks to measure; every one is compared with its ceiling. */
export interface Scenario {
  name: string;
  goal?: Goal;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  /** Runs once before the scenario (log in, create data ...). */
  prepare?: (base: string) => Promise<void>;
  /** A fresh body for every request (e.g. a password ciphertext, which is accepted once). */
  makeBody?: () => unknown;
  /** Parallel connections; default BENCH_CONNECTIONS. Latency targets are read at a few. */
  connections?: number;
  /** Runs against the server's database before the server starts (bench data). */
  beforeServer?: (database: { databaseUrl?: string; dataDir: string }) => Promise<void>;
  /** Its own measurement loop, for chained calls autocannon cannot make (instead of path). */
  run?: (base: string, seconds: number) => Promise<LoopResult>;
  /** Measured without a warm-up: every request must be new to the server (an unseen query). */
  cold?: true;
}

const cachedRead: Goal = { vs: 'healthz', atLeast: 0.9 };

const SEARCHES = [
  { label: '华为手机', body: { siteId: 1000, itemName: '华为手机' } },
  { label: 'iPhone 15', body: { siteId: 1000, itemName: 'iPhone 15' } },
  { label: '三只松鼠坚果 by sales', body: { siteId: 1000, itemName: '三只松鼠坚果', sortField: 'sales' } },
];
/** Popular searches at full load: the same few queries again and again (the result cache). */
const popularSearches: Scenario[] = SEARCHES.map(({ label, body }) => ({
  name: `POST search ${label} (1000, popular)`,
  path: front(catalogApi.search),
  body,
  goal: { vs: 'healthz', atLeast: 0.5 },
}));

/** One shopper's latency on queries nobody asked before: every request a new query. */
let searchTerms: string[] = [];
const uncachedSearch: Scenario = {
  name: 'POST search, each query new (1000, 1 conn)',
  path: front(catalogApi.search),
  connections: 1,
  cold: true,
  goal: { p95AtMostMs: 15 },
  async beforeServer(options) {
    const database = await openDatabase(options);
    try {
      const names = await database.db.execute<{ name: string }>(sql`
        select p.name from product p
        join site_product sp on sp.product_id = p.id and sp.site_id = 1000 and sp.is_on_sale
        order by p.id limit 5000`);
      const terms = new Set<string>();
      for (const { name } of (names as unknown as { rows: { name: string }[] }).rows) {
        const word = name.split(/\s+/)[0] ?? '';
        for (const t of [word.slice(0, 2), word.slice(0, 3), word.slice(1, 3), word]) if (t) terms.add(t);
      }
      searchTerms = [...terms];
    } finally {
      await database.close();
    }
  },
  run: (base, seconds) => {
    let next = 0;
    const sorts = [undefined, 'sales', 'price'];
    // Term by term, then the same terms with another sort: no body repeats until all are used.
    return sequentialLoop(base, front(catalogApi.search), seconds, () => {
      const i = next++;
      const term = searchTerms[i % searchTerms.length];
      const sortField = sorts[Math.floor(i / searchTerms.length) % sorts.length];
      return { siteId: 1000, itemName: term, ...(sortField ? { sortField } : {}) };
    });
  },
};

/** One connection, one request after the other, each with a new body. */
async function sequentialLoop(
  base: string,
  path: string,
  seconds: number,
  bodyOf: () => unknown,
): Promise<LoopResult> {
  const deadline = Date.now() + seconds * 1000;
  const result: LoopResult = { count: 0, latencies: [], errors: 0, failed: 0 };
  while (Date.now() < deadline) {
    const started = performance.now();
    try {
      const answer = await post(base, path, bodyOf());
      if (answer.code !== 200) result.failed++;
      else {
        result.count++;
        result.latencies.push(performance.now() - started);
      }
    } catch {
      result.errors++;
    }
  }
  return result;
}

let publicKeyPem = '';
const post = async (base: string, path: string, body: unknown) => {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> };
};

const authenticated: Scenario = {
  name: 'POST personal/info (token, 10110)',
  path: front(identityApi.personalInfo),
  body: { siteId: 10110 },
  headers: {},
  async prepare(base) {
    const key = await fetch(`${base}/front-mall-api${identityApi.publicKey.path}`).then((r) => r.json());
    publicKeyPem = (key as { data: { publicKey: string } }).data.publicKey;
    const login = await post(base, front(identityApi.accountLogin), {
      siteId: 10110,
      username: 'demo10110',
      password: encryptSecret(publicKeyPem, 'Demo10110'),
    });
    if (login.code !== 200) throw new Error(`bench login failed: ${login.msg}`);
    authenticated.headers = { token: String(login.data.token) };
  },
};

let seeded: OrderSeed | undefined;
let orderBench: OrderBench | undefined;
/** Submit + pay with points by 32 members: over 32 specifications, or all one hot one. */
const submitAndPay = (hot: boolean): Scenario => ({
  name: `submit+pay ${hot ? 'ONE hot spec' : '32 specs'} (719, paid orders)`,
  path: front(orderApi.submitOrder),
  goal: hot ? { vs: 'order 1 statement hot', atLeast: 0.8 } : { vs: 'order tx (client)', atLeast: 0.5 },
  connections: BENCH_MEMBERS,
  async beforeServer(database) {
    seeded ??= await seedOrderBench(database);
  },
  async prepare(base) {
    if (!seeded) throw new Error('order bench not seeded');
    orderBench ??= { specs: seeded.specs, hot: seeded.hot, buyers: await loginBuyers(base, seeded.phones) };
  },
  run: (base, seconds) => {
    const bench = orderBench as OrderBench;
    return submitAndPayLoop(base, {
      buyers: bench.buyers,
      seconds,
      specOf: (i) => (hot ? bench.hot : (bench.specs[i % bench.specs.length] as OrderBench['hot'])),
    });
  },
});

/**
 * A page of the first category of site 1000 by price. On the demo data that category holds 14
 * products: page 1 is a full page, page 5 is past the end and answers only the total.
 */
const listPage = (pageNum: number): Scenario => ({
  name: `POST product list page ${pageNum} (1000)`,
  path: front(catalogApi.productList),
  goal: { vs: 'raw pg pk read', atLeast: 0.5 },
  body: { siteId: 1000, cateId: 0, sortField: 'price', sortType: 'asc', pageNum },
  async prepare(base) {
    const tree = await post(base, front(catalogApi.cateList), { siteId: 1000 });
    const [label] = tree.data.mallCateLables as { cateProductList: { id: number }[] }[];
    (this as Scenario).body = {
      siteId: 1000,
      cateId: label?.cateProductList[0]?.id,
      sortField: 'price',
      sortType: 'asc',
      pageNum,
    };
  },
});

export const SCENARIOS: Scenario[] = [
  // Catalogue (seed with `npm run seed -- --large` first for the 100,000-product figures).
  {
    name: 'POST lableList (1000, cached)',
    path: front(catalogApi.lableList),
    body: { siteId: 1000 },
    goal: cachedRead,
  },
  {
    name: 'POST productCateList (1000, cached)',
    path: front(catalogApi.productCateList),
    goal: cachedRead,
    body: { siteId: 1000, lableId: 0 },
    async prepare(base) {
      const labels = await post(base, front(catalogApi.lableList), { siteId: 1000 });
      const [first] = labels.data.mallCateLables as { id: number }[];
      (this as Scenario).body = { siteId: 1000, lableId: first?.id };
    },
  },
  listPage(1),
  listPage(5),
  {
    name: 'POST product detail (1000)',
    path: front(catalogApi.productDetail),
    body: { siteId: 1000, productId: 1 },
    goal: { vs: 'raw pg pk read', atLeast: 0.7 },
  },
  ...popularSearches,
  uncachedSearch,
  {
    name: 'POST getSiteConfig (719)',
    path: front(siteApi.getSiteConfig),
    body: { siteId: 719 },
    goal: cachedRead,
  },
  {
    name: 'POST pcInfo (10110)',
    path: front(siteApi.pcInfo),
    body: { id: 10110 },
    goal: cachedRead,
  },
  authenticated,
  {
    name: 'POST checkToken (10110)',
    path: front(identityApi.checkToken),
    get body() {
      return { siteId: 10110, token: authenticated.headers?.token };
    },
  },
  {
    name: 'POST pwdLogin (1000, argon2id)',
    path: front(identityApi.pwdLogin),
    async prepare(base) {
      if (!publicKeyPem) await authenticated.prepare?.(base);
    },
    // The login guard counts a try before checking its password, so one member's parallel
    // logins from one address read as guessing from the third in flight on (429, by design):
    // two connections keep the argon2id work of both cores busy without tripping it.
    connections: 2,
    // The server accepts each ciphertext once (replay guard), so every request gets its own.
    makeBody: () => ({
      siteId: 1000,
      phone: '13800001000',
      password: encryptSecret(publicKeyPem, 'Demo1000'),
    }),
  },
  submitAndPay(false),
  submitAndPay(true),
  availableVouchers,
  submitAndPayWithVoucher,
  ...CONSOLE_SCENARIOS,
];
