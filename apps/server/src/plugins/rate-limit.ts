import rateLimit, { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import type { Limiter } from '../modules/identity/limits';

/** A per-address limit of one anonymous call: how many per window, and what the shopper reads. */
export interface AddressLimit {
  /** Names the counter; calls that share a name share a count. */
  name: string;
  max: number;
  windowSeconds: number;
  /** The envelope's msg (code 429), given the seconds until the window ends. */
  msg: (retryAfterSeconds: number) => string;
}

/** "请 N 分钟后再试" for a wait in seconds, at least one minute. */
export const minutesLeft = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/**
 * The client's address as counted by every per-address limit: `req.ip` (which honours
 * TRUST_PROXY), IPv6 reduced to its /64 so one host cannot rotate through its own prefix.
 */
export const clientAddress = (req: FastifyRequest) => normalizeIP(req.ip);

/**
 * The store of @fastify/rate-limit over the app's Limiter: Redis when REDIS_URL is set, the
 * database otherwise, so limits hold across processes and survive a restart.
 */
function limiterStore(limiter: Limiter) {
  return class LimiterStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ) {
      limiter.hit(`rl:${key}`, max, Math.ceil(timeWindow / 1000)).then(
        (r) => callback(null, { current: r.count, ttl: r.retryAfter * 1000 }),
        (error: Error) => callback(error),
      );
    }
    child() {
      return this;
    }
  };
}

/** Route config of a per-address limit (merge it into a route's `config`). */
export function perAddress(limit: AddressLimit): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: {
      max: limit.max,
      timeWindow: limit.windowSeconds * 1000,
      keyGenerator: (req) => `${limit.name}:${clientAddress(req)}`,
      errorResponseBuilder: (_req, ctx) => new AppError(429, limit.msg(Math.ceil(ctx.ttl / 1000))),
    },
  };
}

/**
 * @fastify/rate-limit for the routes that ask for it (`config: perAddress(...)`); no global
 * limit. Counting happens at onRequest, before a body (an upload) is read.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: { limiter: Limiter }) => {
  await app.register(rateLimit, { global: false, store: limiterStore(opts.limiter) });
});
