import { randomUUID } from 'node:crypto';
import {
  AUTH_SCHEME,
  beijingTime,
  encryptResource,
  type NotifyEnvelope,
  type PlatformSigner,
  unixNow,
  wechatpayHeaders,
} from '../../modules/payment/wechatpay/protocol';
import type { Work } from './work';

export type NotifyTamper = 'signature' | 'body' | 'ciphertext' | 'stale' | 'serial';

/** How the next notifies are sent: knobs for tests of the merchant's notify handler. */
export interface NotifyMode {
  /** Extra identical copies of each notify, sent at once (WeChat may deliver twice). */
  duplicates: number;
  /** Corrupt every notify this way; a tampered notify is sent once, never retried. */
  tamper?: NotifyTamper;
  /** Queue notifies until flush(). */
  hold: boolean;
  /** Serial of the platform signer to use (default the first). */
  signWith?: string;
}

export interface NotifyDelivery {
  eventId: string;
  eventType: string;
  url: string;
  /** HTTP status, or 0 when the receiver could not be reached. */
  status: number;
  attempt: number;
  at: string;
}

/** One event for one merchant: its resource is sealed with that merchant's APIv3 key. */
export interface NotifyEvent {
  url: string;
  apiV3Key: string;
  eventType: 'TRANSACTION.SUCCESS' | 'REFUND.SUCCESS';
  summary: string;
  originalType: 'transaction' | 'refund';
  plaintext: object;
}

interface Pending {
  url: string;
  envelope: NotifyEnvelope;
  tamper?: NotifyTamper;
  signer: PlatformSigner;
  copies: number;
}

const UNKNOWN_SERIAL = 'PUB_KEY_ID_0000UNKNOWN';
const STALE_SECONDS = 600;
/** WeChat gives the merchant five seconds to answer a notify. */
const RECEIVER_TIMEOUT_MS = 5_000;
const KEEP_DELIVERIES = 1_000;

const flipFirstByte = (base64: string) => {
  const bytes = Buffer.from(base64, 'base64');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString('base64');
};

/** One hex digit of the id changed: still JSON, no longer the signed bytes. */
const alterOneByte = (body: string) => {
  const at = body.indexOf('"id":"') + 6;
  return `${body.slice(0, at)}${body[at] === 'a' ? 'b' : 'a'}${body.slice(at + 1)}`;
};

/** The bytes and headers of one delivery attempt, signed now (a retry is signed afresh). */
function wire(p: Pending): { body: string; headers: Record<string, string> } {
  const envelope =
    p.tamper === 'ciphertext'
      ? {
          ...p.envelope,
          resource: { ...p.envelope.resource, ciphertext: flipFirstByte(p.envelope.resource.ciphertext) },
        }
      : p.envelope;
  const body = JSON.stringify(envelope);
  const signedBody = p.tamper === 'signature' ? JSON.stringify({ ...envelope, id: randomUUID() }) : body;
  const stamp = p.tamper === 'stale' ? { timestamp: unixNow() - STALE_SECONDS } : {};
  const headers = wechatpayHeaders(signedBody, p.signer, stamp);
  if (p.tamper === 'serial') headers['Wechatpay-Serial'] = UNKNOWN_SERIAL;
  return { body: p.tamper === 'body' ? alterOneByte(body) : body, headers };
}

/**
 * Sends notifies the way WeChat does: POST of a signed JSON envelope whose resource is sealed
 * with AEAD_AES_256_GCM; anything but 200/204 (or no answer) is retried after each of
 * `retryDelaysMs`, with the same id. Every attempt is recorded.
 */
export function createNotifier(options: {
  signer: (serial?: string) => PlatformSigner;
  fetch: typeof fetch;
  retryDelaysMs: readonly number[];
  work: Work;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}) {
  const mode: NotifyMode = { duplicates: 0, hold: false };
  const held: Pending[] = [];
  const deliveries: NotifyDelivery[] = [];

  const record = (delivery: NotifyDelivery) => {
    deliveries.push(delivery);
    if (deliveries.length > KEEP_DELIVERIES) deliveries.shift();
  };

  async function attempt(p: Pending, attemptNo: number, mayRetry: boolean): Promise<void> {
    const { body, headers } = wire(p);
    let status = 0;
    try {
      const response = await options.fetch(p.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: '*/*',
          'User-Agent': 'Mozilla/4.0',
          ...headers,
          'Wechatpay-Signature-Type': AUTH_SCHEME,
        },
        body,
        signal: AbortSignal.timeout(RECEIVER_TIMEOUT_MS),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (error) {
      options.log?.warn(
        { url: p.url, error: (error as Error).message },
        'WeChat Pay simulator: notify unreachable',
      );
    }
    const { id: eventId, event_type: eventType } = p.envelope;
    record({ eventId, eventType, url: p.url, status, attempt: attemptNo, at: new Date().toISOString() });
    if (status === 200 || status === 204) return;
    const delay = options.retryDelaysMs[attemptNo - 1];
    if (!mayRetry || p.tamper || delay === undefined) return;
    options.work.later(delay, () => attempt(p, attemptNo + 1, true));
  }

  /** The first copy carries the retries; duplicates are single extra attempts beside it. */
  const deliver = (p: Pending) => {
    const copies = [attempt(p, 1, true)];
    for (let i = 0; i < p.copies; i += 1) copies.push(attempt(p, 1, false));
    const all = Promise.all(copies);
    options.work.track(all);
    return all;
  };

  return {
    mode,

    send(event: NotifyEvent): void {
      const envelope: NotifyEnvelope = {
        id: randomUUID(),
        create_time: beijingTime(new Date()),
        resource_type: 'encrypt-resource',
        event_type: event.eventType,
        summary: event.summary,
        resource: encryptResource(JSON.stringify(event.plaintext), event.apiV3Key, {
          associatedData: event.originalType,
          originalType: event.originalType,
        }),
      };
      const pending: Pending = {
        url: event.url,
        envelope,
        ...(mode.tamper ? { tamper: mode.tamper } : {}),
        signer: options.signer(mode.signWith),
        copies: Math.max(0, Math.floor(mode.duplicates)),
      };
      options.log?.info(
        { id: envelope.id, event: event.eventType, url: event.url },
        'WeChat Pay simulator: notify',
      );
      if (mode.hold) held.push(pending);
      else void deliver(pending);
    },

    /** Sends what was held one after another (each first attempt awaited), so order is kept. */
    async flush(flushOptions: { reverse?: boolean } = {}): Promise<void> {
      const queue = held.splice(0, held.length);
      if (flushOptions.reverse) queue.reverse();
      for (const pending of queue) await deliver(pending);
    },

    deliveries: (): readonly NotifyDelivery[] => deliveries,
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
