import { isRowId } from '@sitemall/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TokenResolver } from '../context';
import type { Db } from '../db/client';
import { tokenInvalid, unauthorized } from '../lib/errors';
import { type SiteCache, siteNotFound } from '../modules/site/site.service';

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

    async function resolveMember(req: FastifyRequest): Promise<void> {
      // The console resolves its operators itself (modules/admin); a member token means nothing there.
      if (req.routeOptions.config.operator) return;
      const required = req.routeOptions.config.auth === 'required';
      const token = tokenOf(req);
      if (!token) {
        if (required) throw unauthorized();
        return;
      }
      req.ctx.token = token;
      const check = opts.resolveToken
        ? await opts.resolveToken(opts.db, token, siteIdOf(req))
        : { status: 'unknown' as const };
      if (check.status === 'ok') req.ctx.member = check.member;
      else if (required) throw check.status === 'unknown' ? unauthorized() : tokenInvalid();
    }

    app.addHook('preValidation', async (req) => {
      req.ctx = { db: dbOf(req) };
      await resolveMember(req);
    });

    app.addHook('preHandler', async (req) => {
      // Routes outside the validated pipeline (404 handler) reach here without preValidation.
      if (!req.ctx) {
        req.ctx = { db: dbOf(req) };
        await resolveMember(req);
      }
      const siteId = siteIdOf(req);
      if (siteId !== undefined) req.ctx.site = await opts.sites.get(siteId);
      if (req.routeOptions.config.site === 'required' && !req.ctx.site) throw siteNotFound();
    });
  },
);
