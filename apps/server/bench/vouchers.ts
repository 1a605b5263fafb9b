/**
 * Issue 13's two voucher paths under load: the checkout's available vouchers for a 5-line cart
 * of a member holding 50 vouchers, and submit + pay with one voucher by the 32 bench members.
 * Bench data (a template and its vouchers) is written straight into the server's database
 * before the server starts, the way the points of the bench members are.
 */
import { voucherApi } from '@sitemall/contract';
import { type Database, openDatabase } from '../src/db/client';
import { memberByPhone, seedMember } from '../src/modules/identity/members';
import { voucher, voucherTemplate } from '../src/modules/voucher/voucher.tables';
import {
  type Buyer,
  loginBuyers,
  type OrderBench,
  type OrderSeed,
  seedOrderBench,
  submitAndPayLoop,
} from './orders';
import type { Scenario } from './scenarios';

const SITE = 719;
const HOLDER_PHONE = '13707199999';
/** Vouchers the holder keeps: the checkout weighs every one of them against the cart. */
const HELD = 50;
/** Vouchers per bench member for the submit+pay loop: one per order, more than 8 s can use. */
const PER_BUYER = 400;
const DAY = 86_400_000;

interface VoucherSeed {
  order: OrderSeed;
  /** Unused voucher ids of each bench member, in the order of the seed's members. */
  queues: number[][];
}

async function template(db: Database['db'], name: string): Promise<number> {
  const now = Date.now();
  const [row] = await db
    .insert(voucherTemplate)
    .values({
      siteId: SITE,
      name,
      kind: 'amount',
      value: 100,
      scope: { type: 'all', ids: [] },
      claimMode: 'issue',
      validMode: 'fixed',
      validFrom: new Date(now - DAY),
      validTo: new Date(now + 365 * DAY),
    })
    .returning({ id: voucherTemplate.id });
  if (!row) throw new Error('bench template not created');
  return row.id;
}

/** `count` unused vouchers of a template for each member, inserted in chunks. */
async function issue(db: Database['db'], templateId: number, memberIds: readonly number[], count: number) {
  const now = Date.now();
  const rows = memberIds.flatMap((memberId) =>
    Array.from({ length: count }, (_, claimNo) => ({
      siteId: SITE,
      templateId,
      memberId,
      status: 'unused',
      validFrom: new Date(now - DAY),
      validTo: new Date(now + 365 * DAY),
      source: 'issue',
      claimNo: claimNo + 1,
    })),
  );
  const ids = new Map<number, number[]>(memberIds.map((m) => [m, []]));
  for (let i = 0; i < rows.length; i += 1000) {
    const made = await db
      .insert(voucher)
      .values(rows.slice(i, i + 1000))
      .returning({ id: voucher.id, memberId: voucher.memberId });
    for (const v of made) ids.get(v.memberId)?.push(v.id);
  }
  return memberIds.map((m) => ids.get(m) ?? []);
}

let seeded: VoucherSeed | undefined;
async function seedVoucherBench(options: { databaseUrl?: string; dataDir: string }): Promise<VoucherSeed> {
  const order = await seedOrderBench(options);
  const database = await openDatabase(options);
  try {
    const { db } = database;
    // A new template per run, so a second run on the same PostgreSQL database starts full.
    const stamp = Date.now().toString(36);
    const holder =
      (await memberByPhone(db, SITE, HOLDER_PHONE)) ??
      (await seedMember(db, { siteId: SITE, phone: HOLDER_PHONE, password: 'Bench0719' }));
    await issue(db, await template(db, `压测持有券 ${stamp}`), [holder.id], HELD);
    const queues = await issue(db, await template(db, `压测下单券 ${stamp}`), order.memberIds, PER_BUYER);
    return { order, queues };
  } finally {
    await database.close();
  }
}

let holder: Buyer | undefined;
export const availableVouchers: Scenario = {
  name: `POST voucher/available (719, 5 lines, member with ${HELD} vouchers)`,
  path: `/front-mall-api${voucherApi.available.path}`,
  async beforeServer(database) {
    seeded ??= await seedVoucherBench(database);
  },
  async prepare(base) {
    if (!seeded) throw new Error('voucher bench not seeded');
    [holder] = await loginBuyers(base, [HOLDER_PHONE]);
    availableVouchers.headers = { token: holder?.token ?? '' };
    availableVouchers.body = {
      siteId: SITE,
      productInfos: seeded.order.specs
        .slice(0, 5)
        .map((s) => ({ productId: s.productId, specificationId: s.specificationId, num: 1 })),
    };
  },
};

let buyers: OrderBench['buyers'] | undefined;
/** Each member's next voucher, kept across runs: the warm-up's vouchers are used. */
let next: number[] | undefined;
export const submitAndPayWithVoucher: Scenario = {
  name: 'submit+pay with one voucher (719, 32 members)',
  path: '',
  async beforeServer(database) {
    seeded ??= await seedVoucherBench(database);
  },
  async prepare(base) {
    if (!seeded) throw new Error('voucher bench not seeded');
    buyers ??= await loginBuyers(base, seeded.order.phones);
  },
  run: (base, seconds) => {
    const seed = seeded as VoucherSeed;
    next ??= seed.queues.map(() => 0);
    const taken = next;
    return submitAndPayLoop(base, {
      buyers: buyers as Buyer[],
      seconds,
      specOf: (i) => seed.order.specs[i % seed.order.specs.length] as OrderBench['hot'],
      extraOf: (i) => {
        const id = seed.queues[i]?.[taken[i]!++];
        if (id === undefined) throw new Error(`bench member ${i} ran out of vouchers`);
        return { accVoucherIds: [id] };
      },
    });
  },
};
