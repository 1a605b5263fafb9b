import {
  type MovieCinema,
  type MovieShow,
  movieApi,
  orderApi,
  type ProviderSubmitResult,
  type SeatMap,
  topupApi,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProviderSimulator } from '../../simulators/provider';
import { PROVIDER_TEST_TIMEOUT_MS, type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { providerOrder } from './provider.tables';

/** Ticket codes and top-up phones never reach the log, whatever happens to the issue. */
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await testApp({
    providerTimeoutMs: PROVIDER_TEST_TIMEOUT_MS,
    providerIssueOnPay: false,
    logger: { level: 'debug', stream: { write: (line: string) => void lines.push(line) } },
  });
});
afterAll(() => t.close());

it('logs issues, retries and failures without the ticket code or the phone number', async () => {
  const api = client(t);
  const sim = t.app.providers.simulator as ProviderSimulator;
  const me = await buyer(t, 719, 1_000_000);
  const post = <T>(path: string, body: object) => api.post<T>(path, { siteId: 719, ...body }, me.token);
  const [cinema] = (await post<MovieCinema[]>(movieApi.cinemas.path, { cityId: '310100', filmId: 'F01' }))
    .body.data;
  const [show] = (await post<MovieShow[]>(movieApi.shows.path, { cinemaId: cinema?.cinemaId, filmId: 'F01' }))
    .body.data as MovieShow[];
  const map = (await post<SeatMap>(movieApi.seats.path, { showId: show?.showId })).body.data;
  const seat = map.seats.find((s) => s.status === 'available');
  const locked = await post<ProviderSubmitResult>(movieApi.lockSeats.path, {
    showId: show?.showId,
    seatIds: [seat?.seatId],
  });
  await post(movieApi.pay.path, { orderNo: locked.body.data.orderNo, payWay: 'ye' });
  sim.fail('cinema', 'late');
  await t.app.providers.work();
  sim.releaseHeld();
  await t.app.providers.work(new Date(Date.now() + 60_000));

  const phone = '13912340000';
  const top = await post<ProviderSubmitResult>(topupApi.submit.path, { phone, amount: 10 });
  await post(orderApi.payOrder.path, { orderNo: top.body.data.orderNo, payWay: 'ye' });
  sim.fail('topup', 'refuse');
  await t.app.providers.work();

  const [row] = await t.db
    .select()
    .from(providerOrder)
    .where(eq(providerOrder.orderNo, locked.body.data.orderNo));
  const ticket = sim.record(row?.providerReqId as string)?.codes?.[0] as string;
  expect(row?.status).toBe('issued');
  const log = lines.join('\n');
  expect(log).toContain('provider issue unanswered, retrying');
  expect(log).toContain('provider goods issued');
  expect(log).toContain('provider issue failed, refunded');
  expect(log).not.toContain(ticket);
  expect(log).not.toContain(phone);
});
