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
    /**
     * 'catalogue': a public catalogue read, whose `ctx.db` is `Database.catalogue` (the replica
     * when there is one). Never on a member endpoint: a member's own data is read from the primary.
     */
    reads?: 'catalogue';
  }
}

/** Database handles that are an open transaction (so a nested `transaction` joins it). */
const OPEN = new WeakSet<Db>();

/**
 * Runs `work` in one database transaction, handing it the same context with `db` bound to that
 * transaction: the services it calls with that context take part in the same transaction. Called
 * with a context that is already inside one, it joins it rather than opening a savepoint, so a
 * use case spanning services commits or rolls back as one (Vendure's RequestContext carries its
 * transaction the same way).
 */
export function transaction<C extends { db: Db }, T>(ctx: C, work: (ctx: C) => Promise<T>): Promise<T> {
  if (OPEN.has(ctx.db)) return work(ctx);
  return ctx.db.transaction((tx) => {
    OPEN.add(tx);
    return work({ ...ctx, db: tx });
  });
}
