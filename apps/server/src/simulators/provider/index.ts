import { randomBytes, randomUUID } from 'node:crypto';
import type { MovieSeat, SeatMap } from '@sitemall/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { chinaDay } from '../../lib/china-time';
import {
  APP_HEADER,
  type IssueState,
  type SeatLock,
  SIGNATURE_HEADER,
  type StatementLine,
  TIMESTAMP_HEADER,
  verifyProviderSignature,
} from '../../modules/provider/adapters';
import { rawTextBodies } from '../../plugins/raw-body';
import {
  CITIES,
  cinemaById,
  cinemasOf,
  FILMS,
  SEAT_COLS,
  SEAT_ROWS,
  seatName,
  showById,
  showsOf,
  soldBefore,
} from './catalogue';

/**
 * A local cinema and top-up provider (the way simulators/wechatpay stands in for WeChat Pay):
 * signed HTTP under /simulator/provider, seats held by locks that expire, tickets and top-ups
 * issued at most once per request id, and faults a test (or a developer) arms for the next
 * issue requests:
 * - timeout: no answer until released, nothing issued;
 * - late: issued at once, the answer held past the caller's timeout (it must ask again);
 * - lost: issued, then answered 502 (the same request answered twice once retried);
 * - refuse: refused (出票失败), final.
 * An outage (outage(kind, true), or POST /simulator/provider/outage) answers every issue request
 * of a kind 503 without issuing until it ends; query and cancel still answer, so a request
 * given up on can be cancelled and refunded. It keeps an issue unsettled for as long as a
 * developer (or a browser test) needs the console's retry and refund.
 */
export type ProviderFault = 'timeout' | 'late' | 'lost' | 'refuse';

export interface ProviderSimulatorOptions {
  appId: string;
  secret: Buffer;
  /** How long a seat lock holds (default 15 minutes). */
  lockTtlMs?: number;
  now?: () => Date;
  /** Where the cinema H5 lives (the auth link). */
  publicBase?: string;
}

interface IssueRecord extends IssueState {
  kind: 'cinema' | 'topup';
  reqId: string;
  lockId?: string;
  /** Every request that reached the issue endpoint with this id (retries included). */
  requests: number;
  issuedAt?: string;
  /** Fen charged to us: the seats at the show's price, the top-up's face value. */
  amount?: number;
  /** Left out of the statement (a test's deliberate gap). */
  hidden?: boolean;
}

interface LockRecord {
  lockId: string;
  showId: string;
  seatIds: string[];
  expiresAt: Date;
  released: boolean;
}

export interface ProviderSimulator {
  routes: FastifyPluginAsync;
  /** Arms faults for the next issue requests of a kind, in order. */
  fail(kind: 'cinema' | 'topup', ...faults: ProviderFault[]): void;
  /** Starts or ends an outage of a kind's issue requests (503, nothing issued). */
  outage(kind: 'cinema' | 'topup', on: boolean): void;
  /** Answers every held request (timeout: 504; late: 504 as well, its issue stands). */
  releaseHeld(): void;
  /** What the provider knows of a request id. */
  record(reqId: string): IssueRecord | undefined;
  /** Tickets and top-ups issued (of a China day, YYYY-MM-DD, when given): the daily statement. */
  statement(day?: string): StatementLine[];
  /** A test's deliberate statement error: a line left out, or a different amount. */
  alterStatement(reqId: string, change: { hidden?: boolean; amount?: number }): void;
  /** Seats currently held by unexpired locks of a show. */
  heldSeats(showId: string): string[];
}

const DEFAULT_LOCK_TTL_MS = 15 * 60_000;
const TICKET_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const ticketCode = (length: number) =>
  [...randomBytes(length)].map((b) => TICKET_ALPHABET[b % TICKET_ALPHABET.length]).join('');

class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function createProviderSimulator(options: ProviderSimulatorOptions): ProviderSimulator {
  const now = options.now ?? (() => new Date());
  const ttl = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  const locks = new Map<string, LockRecord>();
  const records = new Map<string, IssueRecord>();
  /** showId → seat ids sold through us. */
  const sold = new Map<string, Set<string>>();
  const faults: Record<'cinema' | 'topup', ProviderFault[]> = { cinema: [], topup: [] };
  const held = new Set<() => void>();
  const down = new Set<'cinema' | 'topup'>();

  const liveLocks = (showId: string) =>
    [...locks.values()].filter((l) => l.showId === showId && !l.released && l.expiresAt > now());
  const heldSeats = (showId: string) => liveLocks(showId).flatMap((l) => l.seatIds);

  function seatMap(showId: string): SeatMap {
    const show = showById(showId);
    if (!show) throw new Refusal('SHOW_NOT_FOUND', '场次不存在或已停售');
    const taken = new Set(heldSeats(showId));
    const bought = sold.get(showId) ?? new Set();
    const seats: MovieSeat[] = [];
    for (let row = 1; row <= SEAT_ROWS; row++)
      for (let col = 1; col <= SEAT_COLS; col++) {
        const seatId = `${row}-${col}`;
        const status =
          soldBefore(showId, row, col) || bought.has(seatId)
            ? 'sold'
            : taken.has(seatId)
              ? 'locked'
              : 'available';
        seats.push({ seatId, row, col, name: seatName(row, col), status });
      }
    return {
      show,
      filmName: FILMS.find((f) => f.filmId === show.filmId)?.filmName ?? '',
      cinemaName: cinemaById(show.cinemaId)?.cinemaName ?? '',
      rows: SEAT_ROWS,
      cols: SEAT_COLS,
      seats,
    };
  }

  function lock(showId: string, seatIds: string[]): SeatLock {
    const map = seatMap(showId);
    if (new Date(map.show.startTime) <= now()) throw new Refusal('SHOW_STARTED', '场次已开场');
    if (seatIds.length === 0 || new Set(seatIds).size !== seatIds.length)
      throw new Refusal('BAD_SEATS', '座位不正确');
    const seats = seatIds.map((id) => map.seats.find((s) => s.seatId === id));
    if (seats.some((s) => s?.status !== 'available')) throw new Refusal('SEAT_TAKEN', '座位已被占用');
    const record: LockRecord = {
      lockId: `L${randomUUID().replaceAll('-', '')}`,
      showId,
      seatIds,
      expiresAt: new Date(now().getTime() + ttl),
      released: false,
    };
    locks.set(record.lockId, record);
    return {
      lockId: record.lockId,
      expiresAt: record.expiresAt.toISOString(),
      price: map.show.price,
      seatNames: seats.map((s) => s?.name ?? ''),
      filmName: map.filmName,
      cinemaName: map.cinemaName,
      hall: map.show.hall,
      startTime: map.show.startTime,
    };
  }

  /** Issues once per request id; the same id again answers what happened the first time. */
  function issueOnce(
    kind: 'cinema' | 'topup',
    input: { reqId: string; lockId?: string; phone?: string; faceValue?: number },
  ) {
    const known = records.get(input.reqId);
    if (known) {
      known.requests += 1;
      if (known.state === 'cancelled') throw new Refusal('CANCELLED', '该请求已撤销');
      return known;
    }
    const record: IssueRecord = { kind, reqId: input.reqId, state: 'none', requests: 1 };
    if (kind === 'cinema') {
      const held = input.lockId ? locks.get(input.lockId) : undefined;
      if (!held || held.released || held.expiresAt <= now())
        throw new Refusal('LOCK_EXPIRED', '锁座已失效，出票失败');
      held.released = true;
      const bought = sold.get(held.showId) ?? new Set<string>();
      for (const s of held.seatIds) bought.add(s);
      sold.set(held.showId, bought);
      record.lockId = held.lockId;
      record.codes = [ticketCode(10)];
      record.amount = (showById(held.showId)?.price ?? 0) * held.seatIds.length;
    } else {
      if (!/^1\d{10}$/.test(input.phone ?? '')) throw new Refusal('BAD_PHONE', '手机号无效');
      record.codes = [`TP${ticketCode(12)}`];
      record.amount = Math.round((input.faceValue ?? 0) * 100);
    }
    record.state = 'issued';
    record.providerOrderId = `P${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    record.issuedAt = now().toISOString();
    records.set(input.reqId, record);
    return record;
  }

  const answerOf = (r: IssueRecord): IssueState => ({
    state: r.state,
    ...(r.providerOrderId ? { providerOrderId: r.providerOrderId } : {}),
    ...(r.codes ? { codes: r.codes } : {}),
  });

  const hold = () =>
    new Promise<void>((resolve) => {
      held.add(resolve);
    });

  async function issue(
    kind: 'cinema' | 'topup',
    input: { reqId: string; lockId?: string; phone?: string; faceValue?: number },
  ) {
    if (down.has(kind)) return { status: 503 as const };
    const fault = records.has(input.reqId) ? undefined : faults[kind].shift();
    if (fault === 'refuse') {
      if (kind === 'cinema' && input.lockId) {
        const l = locks.get(input.lockId);
        if (l) l.released = true;
      }
      records.set(input.reqId, { kind, reqId: input.reqId, state: 'cancelled', requests: 1 });
      throw new Refusal('ISSUE_FAILED', kind === 'cinema' ? '影院出票失败' : '运营商充值失败');
    }
    if (fault === 'timeout') {
      await hold();
      return { status: 504 as const };
    }
    const record = issueOnce(kind, input);
    if (fault === 'late') {
      await hold();
      return { status: 504 as const };
    }
    if (fault === 'lost') return { status: 502 as const };
    return { status: 200 as const, data: answerOf(record) };
  }

  /** The caller gives up on a request id: it never issues from now on (unless it already has). */
  function cancel(kind: 'cinema' | 'topup', reqId: string): IssueState {
    const known = records.get(reqId);
    if (known?.state === 'issued') return answerOf(known);
    records.set(reqId, { kind, reqId, state: 'cancelled', requests: known?.requests ?? 0 });
    return { state: 'cancelled' };
  }

  const query = (reqId: string): IssueState => {
    const known = records.get(reqId);
    return known ? answerOf(known) : { state: 'none' };
  };

  type Handler = (
    body: Record<string, unknown>,
  ) => Promise<{ status: 200 | 502 | 503 | 504; data?: unknown }> | unknown;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const handlers: Record<string, Handler> = {
    '/cinema/cities': () => CITIES,
    '/cinema/films': (b) => (CITIES.some((c) => c.cityId === b.cityId) ? FILMS : []),
    '/cinema/cinemas': (b) => cinemasOf(str(b.cityId)),
    '/cinema/shows': (b) => showsOf(str(b.cinemaId), str(b.filmId), now()),
    '/cinema/seats': (b) => seatMap(str(b.showId)),
    '/cinema/lock': (b) => lock(str(b.showId), Array.isArray(b.seatIds) ? b.seatIds.map(str) : []),
    '/cinema/release': (b) => {
      const l = locks.get(str(b.lockId));
      if (l) l.released = true;
      return {};
    },
    '/cinema/auth': (b) => ({
      authUrl: `${options.publicBase ?? ''}/simulator/provider/h5?member=${encodeURIComponent(str(b.memberRef))}&t=${randomUUID()}`,
      expiresAt: new Date(now().getTime() + 10 * 60_000).toISOString(),
    }),
    '/cinema/issue': (b) => issue('cinema', { reqId: str(b.reqId), lockId: str(b.lockId) }),
    '/cinema/query': (b) => query(str(b.reqId)),
    '/cinema/cancel': (b) => cancel('cinema', str(b.reqId)),
    '/topup/recharge': (b) =>
      issue('topup', { reqId: str(b.reqId), phone: str(b.phone), faceValue: Number(b.faceValue) || 0 }),
    '/topup/query': (b) => query(str(b.reqId)),
    '/topup/cancel': (b) => cancel('topup', str(b.reqId)),
    // The daily statement of one China day, signed like every call.
    '/statement': (b) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(str(b.day))) throw new Refusal('BAD_DAY', '对账日期不正确');
      return statement(str(b.day));
    },
  };

  async function answer(path: string, req: FastifyRequest, reply: FastifyReply) {
    const raw = typeof req.body === 'string' ? req.body : '';
    const signature = req.headers[SIGNATURE_HEADER];
    const timestamp = req.headers[TIMESTAMP_HEADER];
    if (
      req.headers[APP_HEADER] !== options.appId ||
      typeof signature !== 'string' ||
      typeof timestamp !== 'string' ||
      !verifyProviderSignature(options.secret, timestamp, raw, signature)
    )
      return reply.code(401).send({ code: 'SIGN_ERROR', message: '签名错误' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return reply.code(400).send({ code: 'BAD_REQUEST', message: '请求不是 JSON' });
    }
    try {
      const result = await (handlers[path] as Handler)(body);
      if (result && typeof result === 'object' && 'status' in result && typeof result.status === 'number') {
        const r = result as { status: number; data?: unknown };
        if (r.status !== 200) return reply.code(r.status).send({ code: 'SYSTEM_ERROR', message: '系统繁忙' });
        return { code: 'SUCCESS', data: r.data };
      }
      return { code: 'SUCCESS', data: result };
    } catch (error) {
      if (error instanceof Refusal) return { code: error.code, message: error.message };
      throw error;
    }
  }

  const routes: FastifyPluginAsync = async (app) => {
    rawTextBodies(app);
    for (const path of Object.keys(handlers))
      app.post(path, { schema: { hide: true } }, (req, reply) => answer(path, req, reply));
    app.get('/statement', { schema: { hide: true } }, async () => ({ code: 'SUCCESS', data: statement() }));
    // A developer's switch (unsigned, like the WeChat Pay simulator's scan page): an outage of a kind.
    app.post('/outage', { schema: { hide: true } }, async (req, reply) => {
      let body: { kind?: unknown; on?: unknown } = {};
      try {
        body = JSON.parse(typeof req.body === 'string' ? req.body : '{}') ?? {};
      } catch {
        // Answered below as a bad request.
      }
      const { kind, on } = body;
      if ((kind !== 'cinema' && kind !== 'topup') || typeof on !== 'boolean')
        return reply.code(400).send({ code: 'BAD_REQUEST', message: 'kind: cinema | topup, on: boolean' });
      setOutage(kind, on);
      return { code: 'SUCCESS', data: { kind, on } };
    });
    app.get('/h5', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><meta charset="utf-8"><title>影院 H5（模拟器）</title><p>影院 H5 模拟页：会员已授权。</p>',
        ),
    );
    app.addHook('onClose', async () => releaseHeld());
  };

  function setOutage(kind: 'cinema' | 'topup', on: boolean) {
    if (on) down.add(kind);
    else down.delete(kind);
  }

  function releaseHeld() {
    for (const resolve of held) resolve();
    held.clear();
  }

  function statement(day?: string): StatementLine[] {
    const range = day ? chinaDay(day) : undefined;
    return [...records.values()]
      .filter((r) => r.state === 'issued' && !r.hidden)
      .filter((r) => {
        if (!range) return true;
        const at = new Date(r.issuedAt ?? 0);
        return at >= range.start && at < range.end;
      })
      .map((r) => ({
        reqId: r.reqId,
        kind: r.kind,
        providerOrderId: r.providerOrderId ?? '',
        amount: r.amount ?? 0,
        issuedAt: r.issuedAt ?? '',
      }));
  }

  return {
    routes,
    fail: (kind, ...more) => {
      faults[kind].push(...more);
    },
    outage: setOutage,
    releaseHeld,
    record: (reqId) => records.get(reqId),
    statement,
    alterStatement: (reqId, change) => {
      const known = records.get(reqId);
      if (!known) return;
      if (change.hidden !== undefined) known.hidden = change.hidden;
      if (change.amount !== undefined) known.amount = change.amount;
    },
    heldSeats,
  };
}
