import {
  MOVIE_MSG,
  type MovieCinema,
  type MovieCity,
  type MovieFilm,
  type MovieShow,
  movieApi,
  type OrderDetail,
  orderApi,
  type PackProduct,
  type PayResult,
  type ProviderSubmitResult,
  packsApi,
  promiseApi,
  type SeatMap,
  type SubmitOrderResult,
  topupApi,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderSimulator } from '../../simulators/provider';
import { PROVIDER_TEST_TIMEOUT_MS, type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, lineOf, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { mallOrder } from '../order/order.tables';
import { issuedCards } from '../packs/packs.fixtures';
import { packCard } from '../packs/packs.tables';
import { payRefund } from '../payment/payment.tables';
import { getBalance } from '../points/points.service';
import { pointsEntry } from '../points/points.tables';
import { MAX_ISSUE_SENDS } from './issue';
import { providerCode, providerOrder } from './provider.tables';
import {
  codesInStock,
  importCodes,
  listProviderOrders,
  reconcileStatement,
  refundProviderOrder,
} from './provider-admin';

let t: TestApp;
let api: ReturnType<typeof client>;
let sim: ProviderSimulator;
let me: { id: number; token: string };
let shows: MovieShow[];

const SITE = 719;
const post = <T>(path: string, body: object, token = me.token) =>
  api.post<T>(path, { siteId: SITE, ...body }, token);
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const balance = (memberId = me.id, siteId = SITE) => getBalance(t, { siteId, memberId });
const rowOf = async (orderNo: string) =>
  (await t.db.select().from(providerOrder).where(eq(providerOrder.orderNo, orderNo)))[0];
const orderOf = async (orderNo: string) =>
  (await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo)))[0];
const detail = async (orderNo: string, token = me.token, siteId = SITE) =>
  (await api.post<OrderDetail>(orderApi.orderDetail.path, { siteId, orderNo }, token)).body.data;
const seatMap = async (showId: string) => (await post<SeatMap>(movieApi.seats.path, { showId })).body.data;
const seatStatus = async (showId: string, seatId: string) =>
  (await seatMap(showId)).seats.find((s) => s.seatId === seatId)?.status;

/** Free seats of a show, a different pair each call. */
let seatCursor = 0;
async function freeSeats(showId: string, n: number): Promise<string[]> {
  const free = (await seatMap(showId)).seats.filter((s) => s.status === 'available');
  seatCursor += n;
  return free.slice(seatCursor - n, seatCursor).map((s) => s.seatId);
}
let showCursor = 0;
const nextShow = () => shows[showCursor++ % shows.length] as MovieShow;

async function lock(seats = 2, token = me.token, siteId = SITE) {
  const show = nextShow();
  const seatIds = await freeSeats(show.showId, seats);
  const res = await api.post<ProviderSubmitResult>(
    movieApi.lockSeats.path,
    { siteId, showId: show.showId, seatIds },
    token,
  );
  expect(res.body).toMatchObject({ success: true, msg: MOVIE_MSG.locked });
  return { ...res.body.data, show, seatIds };
}
const payMovie = (orderNo: string, payWay = 'ye', token = me.token, siteId = SITE) =>
  api.post<PayResult>(movieApi.pay.path, { siteId, orderNo, payWay }, token);

beforeAll(async () => {
  // A held answer counts as "no answer" once the timeout passes. The worker is run by hand.
  t = await testApp({ providerTimeoutMs: PROVIDER_TEST_TIMEOUT_MS, providerIssueOnPay: false });
  api = client(t);
  sim = t.app.providers.simulator as ProviderSimulator;
  me = await buyer(t, SITE, 1_000_000);
  const cityId = ((await post<MovieCity[]>(movieApi.cities.path, {})).body.data[0] as MovieCity).cityId;
  const film = (await post<MovieFilm[]>(movieApi.films.path, { cityId })).body.data[0] as MovieFilm;
  const cinemas = (await post<MovieCinema[]>(movieApi.cinemas.path, { cityId, filmId: film.filmId })).body
    .data;
  shows = [];
  for (const c of cinemas)
    shows.push(
      ...(await post<MovieShow[]>(movieApi.shows.path, { cinemaId: c.cinemaId, filmId: film.filmId })).body
        .data,
    );
});
afterEach(() => sim.releaseHeld());
afterAll(() => t.close());

describe('cinema catalogue (the provider through the adapter)', () => {
  it('lists cities, films, cinemas, future shows and a seat map', async () => {
    const cities = (await post<MovieCity[]>(movieApi.cities.path, {})).body.data;
    expect(cities.map((c) => c.cityName)).toContain('上海');
    expect(shows.length).toBeGreaterThan(0);
    for (const s of shows) expect(new Date(s.startTime).getTime()).toBeGreaterThan(Date.now());
    const map = await seatMap((shows[0] as MovieShow).showId);
    expect(map.seats).toHaveLength(map.rows * map.cols);
    expect(map.seats.some((s) => s.status === 'sold')).toBe(true);
    expect(map.filmName).not.toBe('');
  });

  it('refuses an unknown show in the provider words, and needs a site', async () => {
    const res = await post<SeatMap>(movieApi.seats.path, { showId: 'C1-F9-202001011000' });
    expect(res.body).toMatchObject({ success: false, msg: '场次不存在或已停售' });
    const noSite = await api.post(movieApi.cities.path, {});
    expect(noSite.body.success).toBe(false);
  });

  it('authorises the member for the cinema H5 (movie ticket auth)', async () => {
    const res = await post<{ authUrl: string; expireTime: string }>(movieApi.auth.path, {});
    expect(res.body.data.authUrl).toMatch(/\/simulator\/provider\/h5\?member=/);
    expect((await api.post(movieApi.auth.path, { siteId: SITE })).body.code).toBe(401);
  });
});

describe('lock seats', () => {
  it('holds the seats at the provider and makes an order that expires before the lock', async () => {
    const o = await lock(2);
    expect(o.status).toBe(0);
    expect(new Date(o.expireTime).getTime()).toBeLessThan(new Date(o.lockExpireTime as string).getTime());
    expect(o.payAmount).toBe(o.show.price * 2);
    for (const seat of o.seatIds) expect(await seatStatus(o.show.showId, seat)).toBe('locked');
    const row = await rowOf(o.orderNo);
    expect(row).toMatchObject({ kind: 'movie', status: 'locked', providerReqId: `M${o.childOrderNo[0]}` });
    // Another member cannot take a held seat.
    const other = await buyer(t, SITE, 0);
    const taken = await api.post(
      movieApi.lockSeats.path,
      { siteId: SITE, showId: o.show.showId, seatIds: o.seatIds.join(',') },
      other.token,
    );
    expect(taken.body).toMatchObject({ success: false, msg: '座位已被占用' });
  });

  it('answers a retried request with the order it made (one lock, one order)', async () => {
    const show = nextShow();
    const seatIds = await freeSeats(show.showId, 1);
    const body = { siteId: SITE, showId: show.showId, seatIds, requestId: `lock-${Date.now()}` };
    const [a, b] = await Promise.all([
      api.post<ProviderSubmitResult>(movieApi.lockSeats.path, body, me.token),
      api.post<ProviderSubmitResult>(movieApi.lockSeats.path, body, me.token),
    ]);
    const orders = new Set([a.body.data?.orderNo, b.body.data?.orderNo].filter(Boolean));
    expect(orders.size).toBe(1);
    expect(sim.heldSeats(show.showId).filter((s) => s === seatIds[0])).toHaveLength(1);
  });

  it('refuses no seats, too many, and guests', async () => {
    const show = nextShow();
    expect((await post(movieApi.lockSeats.path, { showId: show.showId, seatIds: '' })).body.msg).toBe(
      MOVIE_MSG.noSeats,
    );
    const five = await freeSeats(show.showId, 5);
    expect((await post(movieApi.lockSeats.path, { showId: show.showId, seatIds: five })).body.msg).toBe(
      MOVIE_MSG.tooManySeats,
    );
    const guest = await api.post(movieApi.lockSeats.path, {
      siteId: SITE,
      showId: show.showId,
      seatIds: five,
    });
    expect(guest.body.code).toBe(401);
  });

  it('gives the seats back when the order is cancelled', async () => {
    const o = await lock(1);
    await post(orderApi.cancelOrder.path, { orderNo: o.orderNo });
    const done = await t.app.providers.work();
    expect(done.released).toBeGreaterThanOrEqual(1);
    expect((await rowOf(o.orderNo))?.status).toBe('expired');
    expect(await seatStatus(o.show.showId, o.seatIds[0] as string)).toBe('available');
  });
});

describe('pay and issue', () => {
  it('pays with points, issues once with the request id, shows the code masked and stores it sealed', async () => {
    const before = await balance();
    const o = await lock(2);
    const paid = await payMovie(o.orderNo);
    expect(paid.body.data).toMatchObject({ isPaid: true, status: 24 });
    expect(await balance()).toBe(before - o.payAmount);
    expect((await rowOf(o.orderNo))?.status).toBe('paid');

    expect((await t.app.providers.work()).issued).toBe(1);
    const row = await rowOf(o.orderNo);
    expect(row?.status).toBe('issued');
    const ticket = sim.record(row?.providerReqId as string)?.codes?.[0] as string;
    expect(ticket).toMatch(/^\w{10}$/);
    // Sealed at rest: the ticket code is nowhere in the row in clear.
    expect(JSON.stringify(row)).not.toContain(ticket);
    const shown = await detail(o.orderNo);
    expect(shown.status).toBe(23);
    expect(shown.providerGoods?.[0]).toMatchObject({ kind: 'movie', status: 'issued', statusName: '已出票' });
    const masked = shown.providerGoods?.[0]?.maskedCodes[0] as string;
    expect(masked).toBe(`${ticket.slice(0, 2)}******${ticket.slice(-2)}`);
    expect(JSON.stringify(shown)).not.toContain(ticket);
    for (const seat of o.seatIds) expect(await seatStatus(o.show.showId, seat)).toBe('sold');
    // Paying again changes nothing; another pass issues nothing more.
    expect((await payMovie(o.orderNo)).body.data.isPaid).toBe(true);
    expect((await t.app.providers.work()).issued).toBe(0);
    expect(sim.record(row?.providerReqId as string)?.requests).toBe(1);
  });

  it(`refuses ${movieApi.pay.path} for an order that is not a cinema order`, async () => {
    const top = await post<ProviderSubmitResult>(topupApi.submit.path, { phone: '13800138000', amount: 10 });
    expect((await payMovie(top.body.data.orderNo)).body.msg).toBe(MOVIE_MSG.notMovieOrder);
  });

  it('two workers at once send the outbox row once', async () => {
    const o = await lock(1);
    await payMovie(o.orderNo);
    const [a, b] = await Promise.all([t.app.providers.work(), t.app.providers.work()]);
    expect(a.issued + b.issued).toBe(1);
    const row = await rowOf(o.orderNo);
    expect(sim.record(row?.providerReqId as string)?.requests).toBe(1);
  });
});

describe('provider faults (cinema)', () => {
  it('refused: the order fails (51), the points come back once, the seats are free again', async () => {
    const before = await balance();
    const o = await lock(2);
    await payMovie(o.orderNo);
    sim.fail('cinema', 'refuse');
    expect((await t.app.providers.work()).failed).toBe(1);
    expect((await orderOf(o.orderNo))?.status).toBe(51);
    expect(await balance()).toBe(before);
    const refunds = await t.db.select().from(pointsEntry).where(eq(pointsEntry.orderNo, o.orderNo));
    expect(refunds.filter((e) => e.type === 'refund')).toHaveLength(1);
    for (const seat of o.seatIds) expect(await seatStatus(o.show.showId, seat)).toBe('available');
    expect((await detail(o.orderNo)).providerGoods?.[0]).toMatchObject({ status: 'failed', maskedCodes: [] });
    await t.app.providers.work(later(60));
    expect(await balance()).toBe(before);
  });

  it('times out every time: retried with the same id, then cancelled at the provider and refunded; never a ticket', async () => {
    const before = await balance();
    const o = await lock(1);
    await payMovie(o.orderNo);
    sim.fail('cinema', ...Array(MAX_ISSUE_SENDS).fill('timeout'));
    let minutes = 0;
    for (let i = 0; i < MAX_ISSUE_SENDS; i++) {
      expect((await t.app.providers.work(later(minutes))).retried).toBe(1);
      expect((await orderOf(o.orderNo))?.status).toBe(24);
      minutes += 10;
    }
    const row = await rowOf(o.orderNo);
    expect(row?.attempts).toBe(MAX_ISSUE_SENDS);
    expect((await t.app.providers.work(later(minutes))).failed).toBe(1);
    expect(sim.record(row?.providerReqId as string)?.state).toBe('cancelled');
    expect((await orderOf(o.orderNo))?.status).toBe(51);
    expect(await balance()).toBe(before);
    expect(await seatStatus(o.show.showId, o.seatIds[0] as string)).toBe('available');
  });

  it('issues after our timeout: the retry with the same id gets that ticket (one ticket, charged once)', async () => {
    const before = await balance();
    const o = await lock(1);
    await payMovie(o.orderNo);
    sim.fail('cinema', 'late');
    expect((await t.app.providers.work()).retried).toBe(1);
    const row = await rowOf(o.orderNo);
    const ticket = sim.record(row?.providerReqId as string)?.codes?.[0];
    expect(ticket).toBeDefined();
    expect((await t.app.providers.work(later(1))).issued).toBe(1);
    expect(sim.record(row?.providerReqId as string)).toMatchObject({ requests: 2, codes: [ticket] });
    expect((await orderOf(o.orderNo))?.status).toBe(23);
    expect(await balance()).toBe(before - o.payAmount);
  });

  it('answers twice (the first answer lost): still one ticket', async () => {
    const o = await lock(1);
    await payMovie(o.orderNo);
    sim.fail('cinema', 'lost');
    expect((await t.app.providers.work()).retried).toBe(1);
    expect((await t.app.providers.work(later(1))).issued).toBe(1);
    const row = await rowOf(o.orderNo);
    expect(sim.record(row?.providerReqId as string)?.requests).toBe(2);
    expect(sim.statement().filter((s) => s.reqId === row?.providerReqId)).toHaveLength(1);
    expect((await detail(o.orderNo)).providerGoods?.[0]?.maskedCodes).toHaveLength(1);
  });

  it('issued late and we gave up: the cancel answers the ticket, which we keep (never refunded with a ticket out)', async () => {
    const before = await balance();
    const o = await lock(1);
    await payMovie(o.orderNo);
    sim.fail('cinema', 'late');
    await t.app.providers.work();
    const row = await rowOf(o.orderNo);
    await refundProviderOrder(t.db, { siteId: SITE, id: row?.id as number });
    expect((await t.app.providers.work(later(1))).issued).toBe(1);
    expect((await orderOf(o.orderNo))?.status).toBe(23);
    expect(await balance()).toBe(before - o.payAmount);
  });

  it('a WeChat-paid ticket the provider refuses is refunded through the WeChat refund outbox', async () => {
    const wx = await buyer(t, 1000, 0);
    const o = await lock(1, wx.token, 1000);
    const pay = await payMovie(o.orderNo, 'wx_pc', wx.token, 1000);
    await t.app.payments.simulator?.pay(pay.body.data.wechat?.codeUrl as string);
    await t.app.payments.simulator?.idle();
    expect((await orderOf(o.orderNo))?.status).toBe(24);
    sim.fail('cinema', 'refuse');
    expect((await t.app.providers.work()).failed).toBe(1);
    const [refund] = await t.db
      .select()
      .from(payRefund)
      .where(eq(payRefund.outRefundNo, `F${o.orderNo}`));
    expect(refund).toMatchObject({ amount: o.payAmount });
    expect(await balance(wx.id, 1000)).toBe(0);
  });
});

describe('direct top-up', () => {
  it('refuses a bad phone or face value', async () => {
    expect((await post(topupApi.submit.path, { phone: '1234', amount: 10 })).body.msg).toBe(
      MOVIE_MSG.badPhone,
    );
    expect((await post(topupApi.submit.path, { phone: '13800138000', amount: 15 })).body.msg).toBe(
      MOVIE_MSG.badAmount,
    );
  });

  it('pays, tops up once, and shows the phone masked', async () => {
    const res = await post<ProviderSubmitResult>(topupApi.submit.path, { phone: '13800138000', amount: 50 });
    expect(res.body).toMatchObject({ success: true, data: { payAmount: 5000, status: 0 } });
    const { orderNo } = res.body.data;
    await api.post(orderApi.payOrder.path, { siteId: SITE, orderNo, payWay: 'ye' }, me.token);
    sim.fail('topup', 'late');
    expect((await t.app.providers.work()).retried).toBe(1);
    expect((await t.app.providers.work(later(1))).issued).toBe(1);
    const shown = await detail(orderNo);
    expect(shown.status).toBe(23);
    expect(shown.providerGoods?.[0]).toMatchObject({
      kind: 'topup',
      detail: '充值号码 138****8000',
      status: 'issued',
    });
    expect(JSON.stringify(shown)).not.toContain('13800138000');
  });

  it('refused by the operator: refunded', async () => {
    const before = await balance();
    const res = await post<ProviderSubmitResult>(topupApi.submit.path, { phone: '13800138001', amount: 10 });
    await api.post(
      orderApi.payOrder.path,
      { siteId: SITE, orderNo: res.body.data.orderNo, payWay: 'ye' },
      me.token,
    );
    sim.fail('topup', 'refuse');
    expect((await t.app.providers.work()).failed).toBe(1);
    expect(await balance()).toBe(before);
  });

  it('refused after paying partly with a gift card: the card gets its part back, points the rest, once', async () => {
    const member = await buyer(t, SITE, 1_000_000);
    const packs = await api.post<{ list: PackProduct[] }>(packsApi.list.path, { siteId: SITE });
    const pack = packs.body.data.list.find((p) => p.faceValue === 10_000) as PackProduct;
    const [card] = await issuedCards(t, { siteId: SITE, productId: pack.id });
    const bound = await api.post(
      packsApi.bind.path,
      { siteId: SITE, code: card?.code, pin: card?.pin },
      member.token,
    );
    expect(bound.body.code).toBe(200);
    const cardBalance = async () =>
      (
        await t.db
          .select({ b: packCard.balance })
          .from(packCard)
          .where(eq(packCard.id, card?.id ?? 0))
      )[0]?.b;
    const before = await balance(member.id);
    const res = await post<ProviderSubmitResult>(
      topupApi.submit.path,
      { phone: '13800138002', amount: 200 },
      member.token,
    );
    const { orderNo } = res.body.data;
    const paid = await api.post(
      orderApi.payOrder.path,
      { siteId: SITE, orderNo, payWay: 'pack' },
      member.token,
    );
    expect(paid.body.code).toBe(200);
    expect(await cardBalance()).toBe(0);
    expect(await balance(member.id)).toBe(before - 10_000);
    sim.fail('topup', 'refuse');
    expect((await t.app.providers.work()).failed).toBe(1);
    expect((await orderOf(orderNo))?.status).toBe(51);
    expect(await cardBalance()).toBe(10_000);
    expect(await balance(member.id)).toBe(before);
    await t.app.providers.work(later(60));
    expect(await cardBalance()).toBe(10_000);
    expect(await balance(member.id)).toBe(before);
  });

  it('a provider outage (the simulator switch over HTTP): unanswered, nothing issued, until it ends', async () => {
    const outage = (on: boolean, kind = 'topup') =>
      t.app.inject({ method: 'POST', url: '/simulator/provider/outage', payload: { kind, on } });
    expect((await outage(true, 'bus')).statusCode).toBe(400);
    expect((await outage(true)).statusCode).toBe(200);
    try {
      const res = await post<ProviderSubmitResult>(topupApi.submit.path, {
        phone: '13800138002',
        amount: 10,
      });
      const { orderNo } = res.body.data;
      await api.post(orderApi.payOrder.path, { siteId: SITE, orderNo, payWay: 'ye' }, me.token);
      expect((await t.app.providers.work()).retried).toBe(1);
      expect((await t.app.providers.work(later(1))).retried).toBe(1);
      const row = await rowOf(orderNo);
      expect(row).toMatchObject({ status: 'issuing', attempts: 2, lastError: 'HTTP 503' });
      expect(sim.record(row?.providerReqId ?? '')).toBeUndefined();
      expect((await outage(false)).statusCode).toBe(200);
      expect((await t.app.providers.work(later(2))).issued).toBe(1);
      expect(sim.record(row?.providerReqId ?? '')).toMatchObject({ state: 'issued', requests: 1 });
    } finally {
      sim.outage('topup', false);
    }
  });
});

describe('e-codes from the pre-loaded stock', () => {
  let spec: PickedSpec;
  beforeAll(async () => {
    spec = (await pickSpecs(t.db, SITE, { virtual: true, stock: 100 }))[0] as PickedSpec;
    await t.db.execute(
      `update product set source = 23 where id = ${spec.productId}` as unknown as Parameters<
        typeof t.db.execute
      >[0],
    );
  });

  const buy = async (member: { token: string }) => {
    const sub = await api.post<SubmitOrderResult>(
      orderApi.submitOrder.path,
      {
        siteId: SITE,
        productInfos: JSON.stringify([lineOf(spec)]),
      },
      member.token,
    );
    expect(sub.body.success).toBe(true);
    const paid = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: SITE, orderNo: sub.body.data.orderNo, payWay: 'ye' },
      member.token,
    );
    expect(paid.body.data.status).toBe(24);
    return sub.body.data.orderNo;
  };

  it('imports codes sealed, once each', async () => {
    const codes = ['ECODE-A-0001', 'ECODE-A-0002', 'ECODE-A-0003', 'ECODE-A-0004'];
    expect(
      await importCodes(t.db, t.app.providers.deps.codesKey, {
        siteId: SITE,
        specificationId: spec.specificationId,
        codes,
      }),
    ).toEqual({
      added: 4,
      skipped: 0,
    });
    expect(
      await importCodes(t.db, t.app.providers.deps.codesKey, {
        siteId: SITE,
        specificationId: spec.specificationId,
        codes: codes.slice(0, 2),
      }),
    ).toEqual({ added: 0, skipped: 2 });
    const rows = await t.db
      .select()
      .from(providerCode)
      .where(eq(providerCode.specificationId, spec.specificationId));
    expect(JSON.stringify(rows)).not.toContain('ECODE-A');
  });

  it('parallel orders and parallel workers: never one code to two orders; the short ones are refunded', async () => {
    const members = await Promise.all(Array.from({ length: 6 }, () => buyer(t, SITE, 100_000)));
    const orderNos = await Promise.all(members.map((m) => buy(m)));
    await Promise.all([t.app.providers.work(), t.app.providers.work(), t.app.providers.work()]);
    const rows = await Promise.all(orderNos.map((no) => rowOf(no)));
    expect(rows.filter((r) => r?.status === 'issued')).toHaveLength(4);
    expect(rows.filter((r) => r?.status === 'failed')).toHaveLength(2);
    const assigned = await t.db
      .select()
      .from(providerCode)
      .where(eq(providerCode.specificationId, spec.specificationId));
    const owners = assigned.map((c) => c.providerOrderId);
    expect(new Set(owners).size).toBe(4);
    expect(await codesInStock(t.db, SITE, spec.specificationId)).toBe(0);
    for (const [i, no] of orderNos.entries()) {
      const order = await orderOf(no);
      const bal = await balance(members[i]?.id);
      if (rows[i]?.status === 'issued') {
        expect(order?.status).toBe(23);
        expect(bal).toBe(100_000 - (order?.payAmount ?? 0));
      } else {
        expect(order?.status).toBe(51);
        expect(bal).toBe(100_000);
      }
    }
    const shown = await detail(
      orderNos[rows.findIndex((r) => r?.status === 'issued')] as string,
      members[rows.findIndex((r) => r?.status === 'issued')]?.token,
    );
    expect(shown.providerGoods?.[0]?.maskedCodes[0]).toMatch(/^EC\*{8}\d{2}$/);
  });
});

describe('operator services', () => {
  it('lists provider orders by state with masked codes, and reconciles with the statement', async () => {
    const issued = await listProviderOrders(
      t,
      { siteIds: [SITE], status: 'issued' },
      t.app.providers.deps.codesKey,
    );
    expect(issued.total).toBeGreaterThan(0);
    for (const r of issued.list) for (const c of r.maskedCodes) expect(c).toContain('*');
    const diff = await reconcileStatement(t.db, sim.statement());
    expect(diff).toEqual({ onlyAtProvider: [], onlyOurs: [] });
  });
});

describe('promise calendar', () => {
  type Entry = {
    source: number;
    sourceName: string;
    isInstant: boolean;
    earliest: string;
    latest: string;
    text: string;
  };
  it('answers each supply source of the site, with the site names, instant for virtual goods', async () => {
    const res = await post<Entry[]>(promiseApi.calendar.path, { provinceCode: '320000' });
    const bySource = new Map(res.body.data.map((e) => [e.source, e]));
    expect(bySource.get(1)?.sourceName).toBe('汇通直供');
    expect(bySource.get(23)).toMatchObject({ isInstant: true, text: '支付后立即发放' });
    expect(bySource.get(1)?.isInstant).toBe(false);
    expect(bySource.get(1)?.text).toMatch(/^预计 \d+月\d+日-\d+月\d+日 送达$/);
  });

  it('adds days for a remote province', async () => {
    const near = (await post<Entry[]>(promiseApi.calendar.path, { sources: '1', provinceCode: '320000' }))
      .body.data[0];
    const far = (await post<Entry[]>(promiseApi.calendar.path, { sources: [1], provinceCode: '650000' })).body
      .data[0];
    const days = (a?: string, b?: string) =>
      (new Date(b as string).getTime() - new Date(a as string).getTime()) / 86_400_000;
    expect(days(near?.latest, far?.latest)).toBe(2);
  });
});
