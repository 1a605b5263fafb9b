import { catalogApi, orderApi } from '@sitemall/contract';
import { encryptSecret } from '../src/modules/identity/crypto';
import {
  BENCH_MEMBERS,
  type LoopResult,
  loginBuyers,
  type OrderBench,
  seedOrderBench,
  submitAndPayLoop,
} from './orders';

/** The hot paths each issue asks to measure; every one is compared with /healthz. */
export interface Scenario {
  name: string;
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
}

const SEARCHES = [
  { label: '华为手机', body: { siteId: 1000, itemName: '华为手机' } },
  { label: 'iPhone 15', body: { siteId: 1000, itemName: 'iPhone 15' } },
  { label: '三只松鼠坚果 by sales', body: { siteId: 1000, itemName: '三只松鼠坚果', sortField: 'sales' } },
];
/** Each search at full load (throughput) and alone (the latency one shopper sees, no queueing). */
const searchScenarios = (connections?: number): Scenario[] =>
  SEARCHES.map(({ label, body }) => ({
    name: `POST search ${label} (1000)`,
    path: `/front-mall-api${catalogApi.search.path}`,
    body,
    connections,
  }));

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
  path: '/front-mall-api/sys/user/personal/info',
  body: { siteId: 10110 },
  headers: {},
  async prepare(base) {
    const key = await fetch(`${base}/front-mall-api/app/client/publicKey`).then((r) => r.json());
    publicKeyPem = (key as { data: { publicKey: string } }).data.publicKey;
    const login = await post(base, '/front-mall-api/app/client/accountLogin', {
      siteId: 10110,
      username: 'demo10110',
      password: encryptSecret(publicKeyPem, 'Demo10110'),
    });
    if (login.code !== 200) throw new Error(`bench login failed: ${login.msg}`);
    authenticated.headers = { token: String(login.data.token) };
  },
};

let seeded: Awaited<ReturnType<typeof seedOrderBench>> | undefined;
let orderBench: OrderBench | undefined;
/** Submit + pay with points by 32 members: over 32 specifications, or all one hot one. */
const submitAndPay = (hot: boolean): Scenario => ({
  name: `submit+pay ${hot ? 'ONE hot spec' : '32 specs'} (719, paid orders)`,
  path: `/front-mall-api${orderApi.submitOrder.path}`,
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

export const SCENARIOS: Scenario[] = [
  // Catalogue (seed with `npm run seed -- --large` first for the 100,000-product figures).
  {
    name: 'POST productCateList (1000, cached)',
    path: `/front-mall-api${catalogApi.productCateList.path}`,
    body: { siteId: 1000, lableId: 0 },
    async prepare(base) {
      const labels = await post(base, `/front-mall-api${catalogApi.lableList.path}`, { siteId: 1000 });
      const [first] = labels.data.mallCateLables as { id: number }[];
      (this as Scenario).body = { siteId: 1000, lableId: first?.id };
    },
  },
  {
    name: 'POST product list page 5 (1000)',
    path: `/front-mall-api${catalogApi.productList.path}`,
    body: { siteId: 1000, cateId: 0, sortField: 'price', sortType: 'asc', pageNum: 5 },
    async prepare(base) {
      const tree = await post(base, `/front-mall-api${catalogApi.cateList.path}`, { siteId: 1000 });
      const [label] = tree.data.mallCateLables as { cateProductList: { id: number }[] }[];
      (this as Scenario).body = {
        siteId: 1000,
        cateId: label?.cateProductList[0]?.id,
        sortField: 'price',
        sortType: 'asc',
        pageNum: 5,
      };
    },
  },
  {
    name: 'POST product detail (1000)',
    path: `/front-mall-api${catalogApi.productDetail.path}`,
    body: { siteId: 1000, productId: 1 },
  },
  ...searchScenarios(),
  ...searchScenarios(1),
  {
    name: 'POST getSiteConfig (719)',
    path: '/front-mall-api/mall/mallsite/getSiteConfig',
    body: { siteId: 719 },
  },
  { name: 'POST pcInfo (10110)', path: '/front-mall-api/mall/mallsite/pcInfo', body: { id: 10110 } },
  authenticated,
  {
    name: 'POST checkToken (10110)',
    path: '/front-mall-api/app/client/checkToken',
    get body() {
      return { siteId: 10110, token: authenticated.headers?.token };
    },
  },
  {
    name: 'POST pwdLogin (1000, argon2id)',
    path: '/front-mall-api/app/client/pwdLogin',
    async prepare(base) {
      if (!publicKeyPem) await authenticated.prepare?.(base);
    },
    // The server accepts each ciphertext once (replay guard), so every request gets its own.
    makeBody: () => ({
      siteId: 1000,
      phone: '13800001000',
      password: encryptSecret(publicKeyPem, 'Demo1000'),
    }),
  },
  submitAndPay(false),
  submitAndPay(true),
];
