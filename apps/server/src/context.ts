import type { Db } from './db/client';
import type { Site } from './modules/site/site.service';

export interface Member {
  id: number;
  siteId: number;
  phone: string | null;
  username: string | null;
}

/** What a token turns out to be (architecture.md: 401 unknown, 416 no longer valid here). */
export type TokenCheck = { status: 'ok'; member: Member } | { status: 'unknown' } | { status: 'invalid' };
export type TokenResolver = (db: Db, token: string, siteId: number | undefined) => Promise<TokenCheck>;

/** Resolved once per request; every service function takes it first. */
export interface RequestContext {
  db: Db;
  site?: Site;
  member?: Member;
  token?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
  interface FastifyContextConfig {
    /** 'required': answer 401/416 unless a valid token of this site comes with the call. */
    auth?: 'required' | 'optional';
    /** 'required': the payload's siteId must name an existing site. */
    site?: 'required';
    /** An operator console endpoint (Endpoint.operator): members are not resolved for it. */
    operator?: string;
  }
}
