import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The Content-Security-Policy of every answer, the storefront first. Scripts only from this
 * origin (the built storefront has no inline script). Styles allow 'unsafe-inline' because antd
 * injects its CSS-in-JS as <style> elements at run time and the old-IE notice uses style
 * attributes. Images from data: and blob: for the pay page's QR code and antd's icons. Nobody may
 * frame any page (clickjacking of the pay page), and no form posts anywhere else.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** A year, as browsers' preload lists expect. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer: CSP, X-Frame-Options DENY, nosniff, Referrer-Policy.
 * HSTS only on requests that came over TLS: directly, or as X-Forwarded-Proto from a proxy
 * trusted by TRUST_PROXY (req.protocol reads it only then). Sent over plain HTTP it would be
 * ignored at best, and behind a misconfigured proxy it would lock browsers out.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: false,
  });
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
});
