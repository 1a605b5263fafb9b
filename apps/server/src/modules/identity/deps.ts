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
}

/** The request context of an identity call: the resolved site and member, the caller's IP. */
export interface IdentityCtx extends RequestContext {
  ip: string;
  deps: IdentityDeps;
}

/** The identity services of one app: sessions, limits, SMS and partner gateways. */
export function createIdentityDeps(input: {
  secrets: Secrets;
  limiter: Limiter;
  sms: SmsProvider;
  partners: PartnerAdapters;
  loginsPerIpMinute: number;
}): IdentityDeps {
  return { ...input, sessions: createSessionStore() };
}
