import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MovieCinema, MovieCity, MovieFilm, MovieShow, SeatMap } from '@sitemall/contract';

/**
 * The provider adapters (promotions.md section 8): one interface per kind, spoken over HTTP to
 * the provider (locally the simulator under /simulator/provider). Every request is signed with
 * HMAC-SHA256 over timestamp and body; the answer is {code, message, data}. Issue, query and
 * cancel carry our request id (provider_req_id): the provider issues at most once per id, so a
 * retry after a timeout can never make a second ticket.
 */

/** The provider refused (a business answer: seat taken, show over, number invalid). Final. */
export class ProviderRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

/** No answer we can rely on (timeout, network, 5xx): the outcome is unknown, ask again later. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

/** What issue, query and cancel answer about one request id. */
export interface IssueState {
  /** issued: codes hold the tickets; none: never issued; cancelled: will never issue. */
  state: 'issued' | 'none' | 'cancelled';
  providerOrderId?: string;
  codes?: string[];
}

export interface SeatLock {
  lockId: string;
  expiresAt: string;
  /** Fen per seat. */
  price: number;
  seatNames: string[];
  filmName: string;
  cinemaName: string;
  hall: string;
  startTime: string;
}

/** What the issue worker needs of any provider that issues after payment. */
export interface Issuer {
  issue(input: { reqId: string; lockId?: string; phone?: string; faceValue?: number }): Promise<IssueState>;
  query(reqId: string): Promise<IssueState>;
  /** Makes sure the request never issues; answers issued (with the codes) when it already had. */
  cancel(reqId: string): Promise<IssueState>;
}

export interface CinemaAdapter extends Issuer {
  cities(): Promise<MovieCity[]>;
  films(cityId: string): Promise<MovieFilm[]>;
  cinemas(cityId: string, filmId?: string): Promise<MovieCinema[]>;
  shows(cinemaId: string, filmId: string): Promise<MovieShow[]>;
  seats(showId: string): Promise<SeatMap>;
  lock(input: { showId: string; seatIds: string[] }): Promise<SeatLock>;
  release(lockId: string): Promise<void>;
  /** The cinema H5's authorisation of a member (movie ticket auth). */
  auth(memberRef: string): Promise<{ authUrl: string; expiresAt: string }>;
}

export type TopupAdapter = Issuer;

/** One line of the provider's daily statement: a ticket or top-up it issued and charged us for. */
export interface StatementLine {
  reqId: string;
  /** cinema or topup */
  kind: string;
  providerOrderId: string;
  /** Fen. */
  amount: number;
  issuedAt: string;
}

/** The provider's statement of a China day (YYYY-MM-DD). */
export type StatementSource = (day: string) => Promise<StatementLine[]>;

export interface ProviderEndpoint {
  /** e.g. http://127.0.0.1:8080/simulator/provider */
  apiBase: string;
  appId: string;
  secret: Buffer;
  /** How long we wait for an answer before the outcome counts as unknown. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

export const SIGNATURE_HEADER = 'x-provider-signature';
export const TIMESTAMP_HEADER = 'x-provider-timestamp';
export const APP_HEADER = 'x-provider-app';

export const signProviderBody = (secret: Buffer, timestamp: string, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}\n${body}`).digest('hex');

/** Whether a request's signature is the HMAC of its timestamp and body under `secret`. */
export function verifyProviderSignature(secret: Buffer, timestamp: string, body: string, signature: string) {
  const expected = Buffer.from(signProviderBody(secret, timestamp, body), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One signed JSON call; an answer not in time is ProviderUnavailable, whatever comes later. */
export function providerCaller(endpoint: ProviderEndpoint) {
  const http = endpoint.fetch ?? fetch;
  return async function call<T>(path: string, payload: object): Promise<T> {
    const body = JSON.stringify(payload);
    const timestamp = String(Date.now());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ProviderUnavailable(`no answer in ${endpoint.timeoutMs} ms`)),
        endpoint.timeoutMs,
      );
    });
    let response: Response;
    let raw: string;
    try {
      // A race rather than an abort signal alone: the in-process fetch of the tests ignores signals.
      [response, raw] = await Promise.race([
        (async () => {
          const res = await http(`${endpoint.apiBase.replace(/\/$/, '')}${path}`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              [APP_HEADER]: endpoint.appId,
              [TIMESTAMP_HEADER]: timestamp,
              [SIGNATURE_HEADER]: signProviderBody(endpoint.secret, timestamp, body),
            },
            body,
            signal: AbortSignal.timeout(endpoint.timeoutMs + 1_000),
          });
          return [res, await res.text()] as const;
        })(),
        timeout,
      ]);
    } catch (error) {
      if (error instanceof ProviderUnavailable) throw error;
      throw new ProviderUnavailable(`network: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 500) throw new ProviderUnavailable(`HTTP ${response.status}`);
    let answer: { code?: string; message?: string; data?: T };
    try {
      answer = JSON.parse(raw);
    } catch {
      throw new ProviderUnavailable('answer is not JSON');
    }
    if (answer.code !== 'SUCCESS')
      throw new ProviderRefusal(answer.code ?? 'ERROR', answer.message ?? '服务商拒绝了请求');
    return answer.data as T;
  };
}

/** The cinema adapter over the provider's HTTP API. */
export function httpCinema(endpoint: ProviderEndpoint): CinemaAdapter {
  const call = providerCaller(endpoint);
  return {
    cities: () => call('/cinema/cities', {}),
    films: (cityId) => call('/cinema/films', { cityId }),
    cinemas: (cityId, filmId) => call('/cinema/cinemas', { cityId, ...(filmId ? { filmId } : {}) }),
    shows: (cinemaId, filmId) => call('/cinema/shows', { cinemaId, filmId }),
    seats: (showId) => call('/cinema/seats', { showId }),
    lock: (input) => call('/cinema/lock', input),
    release: async (lockId) => {
      await call('/cinema/release', { lockId });
    },
    auth: (memberRef) => call('/cinema/auth', { memberRef }),
    issue: ({ reqId, lockId }) => call('/cinema/issue', { reqId, lockId }),
    query: (reqId) => call('/cinema/query', { reqId }),
    cancel: (reqId) => call('/cinema/cancel', { reqId }),
  };
}

/** The direct top-up adapter over the provider's HTTP API. */
export function httpTopup(endpoint: ProviderEndpoint): TopupAdapter {
  const call = providerCaller(endpoint);
  return {
    issue: ({ reqId, phone, faceValue }) => call('/topup/recharge', { reqId, phone, faceValue }),
    query: (reqId) => call('/topup/query', { reqId }),
    cancel: (reqId) => call('/topup/cancel', { reqId }),
  };
}

/** The daily statement over the provider's HTTP API. */
export function httpStatement(endpoint: ProviderEndpoint): StatementSource {
  const call = providerCaller(endpoint);
  return (day) => call('/statement', { day });
}
