/**
 * "Submit and pay" under load: 32 members, each its own token, address and points, each
 * submitting a buy-now order and paying it with points, back to back. autocannon cannot chain
 * two calls with the first one's answer, so this is a small fetch loop that reports the same
 * columns: one "request" is submit + pay, and req/s is paid orders per second.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { addressApi, identityApi, orderApi } from '@sitemall/contract';
import { type Database, openDatabase } from '../src/db/client';
import { seedDemo } from '../src/db/seed';
import { encryptSecret } from '../src/modules/identity/crypto';
import { memberByPhone, seedMember } from '../src/modules/identity/members';
import { type PickedSpec, pickSpecs, setStock } from '../src/modules/order/order.fixtures';
import { getBalance, postEntry } from '../src/modules/points/points.service';

const SITE = 719;
const PASSWORD = 'Bench0719';
export const BENCH_MEMBERS = 32;

export interface Buyer {
  phone: string;
  token: string;
}

export interface OrderBench {
  /** Specifications sold on the site, one per member (spread) and the hot one (all). */
  specs: PickedSpec[];
  hot: PickedSpec;
  buyers: Buyer[];
}

/**
 * Points of each bench member (20,000,000.00: the order ceilings of one 8 s run, warm-ups
 * included, spent more than 800,000.00 of a member's points, and a member short of points makes
 * a ceiling fail orders) and stock of each bench specification.
 */
const POINTS = 2_000_000_000;
const STOCK = 10_000_000;

export interface OrderSeed {
  phones: string[];
  memberIds: number[];
  specs: PickedSpec[];
  hot: PickedSpec;
}

interface BenchDatabase {
  databaseUrl?: string;
  dataDir: string;
}

/** The bench members back to their points, the bench specifications back to their stock. */
async function refill(db: Database['db'], seed: OrderSeed) {
  for (const memberId of seed.memberIds) {
    const balance = await getBalance({ db }, { siteId: SITE, memberId });
    if (balance < POINTS)
      await postEntry(db, { siteId: SITE, memberId, amount: POINTS - balance, type: 'issue', note: 'bench' });
  }
  await setStock(
    db,
    [seed.hot, ...seed.specs].map((s) => s.specificationId),
    STOCK,
  );
}

async function seed(options: BenchDatabase): Promise<OrderSeed> {
  const database = await openDatabase(options);
  try {
    await database.migrate();
    const { db } = database;
    await seedDemo(db);
    const phones = Array.from({ length: BENCH_MEMBERS }, (_, i) => `1370719${String(i).padStart(4, '0')}`);
    const memberIds: number[] = [];
    for (const phone of phones) {
      const member =
        (await memberByPhone(db, SITE, phone)) ??
        (await seedMember(db, { siteId: SITE, phone, password: PASSWORD }));
      memberIds.push(member.id);
    }
    const specs = await pickSpecs(db, SITE, { count: BENCH_MEMBERS + 1 });
    const seeded = { phones, memberIds, specs: specs.slice(1), hot: specs[0] as PickedSpec };
    await refill(db, seeded);
    return seeded;
  } finally {
    await database.close();
  }
}

let seeding: Promise<OrderSeed> | undefined;

/**
 * Run in the bench process against the server's database before the server starts, once per
 * run (run.ts and every scenario that buys share it): the demo data, 32 members with
 * 1,000,000.00 points each (topped up on every run), and large stock.
 */
export function seedOrderBench(options: BenchDatabase): Promise<OrderSeed> {
  seeding ??= seed(options);
  return seeding;
}

/**
 * After the order ceilings ran on the server's own database (PostgreSQL; on PGlite they run on
 * a copy): the points and stock they used are given back before the product is measured.
 */
export async function refillOrderBench(options: BenchDatabase): Promise<void> {
  if (!seeding) throw new Error('order bench not seeded');
  const seeded = await seeding;
  const database = await openDatabase(options);
  try {
    await refill(database.db, seeded);
  } finally {
    await database.close();
  }
}

/**
 * The order loops' HTTP client: node:http on kept-alive connections. fetch (undici, web streams)
 * spent 1.0–1.8 ms of CPU per paid order in the bench process, node:http 0.3–0.6 ms; on two
 * cores the client's CPU is taken from the server and the database it measures (autocannon, for
 * the other paths, is as light).
 */
const agent = new http.Agent({ keepAlive: true });

function post(
  base: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ code: number; msg: string; data: Record<string, unknown> }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}/front-mall-api${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(token ? { token } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString()));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Logs the bench members in and gives each a default address (in the scenario's prepare). */
export async function loginBuyers(base: string, phones: string[]): Promise<Buyer[]> {
  const key = await fetch(`${base}/front-mall-api${identityApi.publicKey.path}`).then((r) => r.json());
  const pem = (key as { data: { publicKey: string } }).data.publicKey;
  const logIn = async (phone: string): Promise<Buyer> => {
    const login = await post(base, identityApi.pwdLogin.path, {
      siteId: SITE,
      phone,
      password: encryptSecret(pem, PASSWORD),
    });
    if (login.code !== 200) throw new Error(`bench login ${phone}: ${login.msg}`);
    const token = String(login.data.token);
    // Once per member, also when the bench runs again on the same PostgreSQL database.
    const saved = await post(base, addressApi.getDefault.path, { siteId: SITE }, token);
    if (!saved.data)
      await post(
        base,
        addressApi.save.path,
        {
          siteId: SITE,
          consignee: '压测',
          phone,
          provinceCode: '320000',
          cityCode: '320100',
          districtCode: '320102',
          detail: '中山路 1 号',
          isDefault: true,
        },
        token,
      );
    return { phone, token };
  };
  // A few at a time: ten logins in flight from one address look like password spraying to the
  // login guard (LOGIN_GUARD.sprayAccounts), which then asks for an image code.
  const buyers: Buyer[] = [];
  for (let i = 0; i < phones.length; i += 8)
    buyers.push(...(await Promise.all(phones.slice(i, i + 8).map(logIn))));
  return buyers;
}

export interface LoopResult {
  count: number;
  /** ms per submit + pay. */
  latencies: number[];
  errors: number;
  failed: number;
}

/**
 * `workers` loops run `attempt` until the time is up: true counts a done operation with its
 * latency, false a refused one, a throw an error. The loop of every order path and its ceiling.
 */
export async function timedLoops(
  workers: number,
  seconds: number,
  attempt: (worker: number) => Promise<boolean>,
): Promise<LoopResult> {
  const deadline = Date.now() + seconds * 1000;
  const result: LoopResult = { count: 0, latencies: [], errors: 0, failed: 0 };
  await Promise.all(
    Array.from({ length: workers }, async (_, i) => {
      while (Date.now() < deadline) {
        const started = performance.now();
        try {
          if (!(await attempt(i))) {
            result.failed++;
            continue;
          }
          result.count++;
          result.latencies.push(performance.now() - started);
        } catch {
          result.errors++;
        }
      }
    }),
  );
  return result;
}

/** Every buyer submits and pays in a loop until the time is up; specOf picks what it buys. */
export function submitAndPayLoop(
  base: string,
  options: {
    buyers: Buyer[];
    seconds: number;
    specOf: (i: number) => PickedSpec;
    /** More fields of buyer i's next submission (e.g. the voucher it uses). */
    extraOf?: (i: number) => Record<string, unknown>;
  },
): Promise<LoopResult> {
  return timedLoops(options.buyers.length, options.seconds, async (i) => {
    const buyer = options.buyers[i] as Buyer;
    const spec = options.specOf(i);
    const submitted = await post(
      base,
      orderApi.submitOrder.path,
      {
        siteId: SITE,
        requestId: randomUUID(),
        productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 1 }],
        ...options.extraOf?.(i),
      },
      buyer.token,
    );
    if (submitted.code !== 200) return false;
    const paid = await post(
      base,
      orderApi.payOrder.path,
      { siteId: SITE, orderNo: submitted.data.orderNo, payWay: 'ye' },
      buyer.token,
    );
    return paid.code === 200 && paid.data.isPaid === true;
  });
}
