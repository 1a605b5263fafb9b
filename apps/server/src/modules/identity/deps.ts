import type { FastifyBaseLogger } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { RequestContext } from '../../context';
import type { Secrets } from '../../lib/secrets';
import type { Limiter } from './limits';
import type { PartnerAdapters } from './partners/adapters';
import { createSessionStore, type SessionStore } from './sessions';

import type { SmsProvider } from './sms';

/** What the identity services need besides the database. */
export interface IdentityDeps {
  secrets: Secrets;
  sessions: SessionStore;
  limiter: Limiter;
  sms: SmsProvider;
  partners: PartnerAdapters;
  loginsPerIpMinute: number;
  /** Prometheus counters of the attacks the guards see. */
  alerts: { loginSpray: Counter };
}

/** The request context of an identity call: the resolved site and member, the caller's IP. */
export interface IdentityCtx extends RequestContext {
  /** The client address (behind TRUST_PROXY's proxies, the one they forwarded). */
  ip: string;
  deps: IdentityDeps;
  /** The request's logger (login outcomes, attack alerts). */
  log?: FastifyBaseLogger;
}

/** The identity services of one app: sessions, limits, SMS and partner gateways. */
export function createIdentityDeps(input: {
  secrets: Secrets;
  limiter: Limiter;
  sms: SmsProvider;
  partners: PartnerAdapters;
  loginsPerIpMinute: number;
  /** Where the alert counters are registered (the /metrics registry). */
  metrics?: Registry;
}): IdentityDeps {
  const { metrics, ...rest } = input;
  const loginSpray = new Counter({
    name: 'sitemall_login_spray_total',
    help: 'Failed logins from an address that has failed on many accounts lately (password spraying)',
    registers: metrics ? [metrics] : [],
  });
  return { ...rest, sessions: createSessionStore(), alerts: { loginSpray } };
}
