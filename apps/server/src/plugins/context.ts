import { isRowId } from '@sitemall/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TokenResolver } from '../context';
import type { Db } from '../db/client';
import { tokenInvalid, unauthorized } from '../lib/errors';
import { type Site, type SiteCache, siteNotFound } from '../modules/site/site.service';

export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  if (token) return token;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() || undefined : undefined;
}

function siteIdOf(req: FastifyRequest): number | undefined {
  const fromBody = (req.body as { siteId?: unknown } | undefined)?.siteId;
  const fromQuery = (req.query as { siteId?: unknown } | undefined)?.siteId;
  const value = Number(fromBody ?? fromQuery);
  // Routes without a schema for siteId still never send PostgreSQL an id its column cannot hold.
  return isRowId(value) ? value : undefined;
}

/**
 * Resolves the site and the member of a request once into `req.ctx`. Routes say in their
 * config whether they need a site or a logged-in member. The member is checked before the
 * body is validated, so a visitor calling a member endpoint always hears 401/416 (and goes to
 * login), whatever they sent; the site is checked after, so a malformed siteId is a 400.
 */
export const contextPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { db: Db; catalogue?: Db; sites: SiteCache; resolveToken?: TokenResolver },
  ) => {
    // The one place a request's database is chosen: the replica for public catalogue reads
    // (route config `reads: 'catalogue'`), the primary for everything else. Members (sessions)
    // are always resolved on the primary.
    const dbOf = (req: FastifyRequest) =>
      req.routeOptions.config.reads === 'catalogue' ? (opts.catalogue ?? opts.db) : opts.db;
    app.decorateRequest('ctx', null as never);

    /**
     * The member of the request's token, when there is one to check: a promise only then, so a
     * visitor's request (and the console's) passes without one.
     */
    function resolveMember(req: FastifyRequest): Promise<void> | undefined {
      // The console resolves its operators itself (modules/admin); a member token means nothing there.
      if (req.routeOptions.config.operator) return undefined;
      const required = req.routeOptions.config.auth === 'required';
      const token = tokenOf(req);
      if (!token) {
        if (required) throw unauthorized();
        return undefined;
      }
      req.ctx.token = token;
      if (!opts.resolveToken) {
        if (required) throw unauthorized();
        return undefined;
      }
      return opts.resolveToken(opts.db, token, siteIdOf(req)).then((check) => {
        if (check.status === 'ok') req.ctx.member = check.member;
        else if (required) throw check.status === 'unknown' ? unauthorized() : tokenInvalid();
      });
    }

    /** The request's site: from the cache at once when it is loaded there, else when it has come. */
    function resolveSite(req: FastifyRequest): Promise<void> | undefined {
      const siteId = siteIdOf(req);
      const required = req.routeOptions.config.site === 'required';
      const settle = (site: Site | undefined): undefined => {
        if (site) req.ctx.site = site;
        else if (required) throw siteNotFound();
        return undefined;
      };
      if (siteId === undefined) return settle(undefined);
      const cached = opts.sites.peek(siteId);
      return cached ? settle(cached.value) : opts.sites.get(siteId).then(settle);
    }

    // Callback hooks, each calling `done` at once when it has nothing to wait for: the cached
    // reads every page makes pass without a promise per hook (docs/performance.md).
    const finish = (work: () => Promise<void> | undefined, done: (err?: Error) => void) => {
      let pending: Promise<void> | undefined;
      try {
        pending = work();
      } catch (err) {
        return done(err as Error);
      }
      if (pending) pending.then(() => done(), done);
      else done();
    };

    app.addHook('preValidation', (req, _reply, done) => {
      req.ctx = { db: dbOf(req) };
      finish(() => resolveMember(req), done);
    });

    app.addHook('preHandler', (req, _reply, done) => {
      // Routes outside the validated pipeline (404 handler) reach here without preValidation.
      if (req.ctx) return finish(() => resolveSite(req), done);
      req.ctx = { db: dbOf(req) };
      finish(() => resolveMember(req)?.then(() => resolveSite(req)) ?? resolveSite(req), done);
    });
  },
);
