import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

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
 * The headers `helmet(options)` sets, taken once. They depend on nothing of a request (no
 * nonces), and @fastify/helmet built the whole middleware again for every request, parsing the
 * CSP each time: about a fourteenth of the CPU of a refused flash-sale click or a health check.
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed;
  return headers;
}

export const SECURITY_HEADERS = helmetHeaders({
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  hsts: false,
});

/**
 * Security headers on every answer: CSP, X-Frame-Options DENY, nosniff, Referrer-Policy and
 * helmet's other defaults. HSTS only on requests that came over TLS: directly, or as
 * X-Forwarded-Proto from a proxy trusted by TRUST_PROXY (req.protocol reads it only then). Sent
 * over plain HTTP it would be ignored at best, and behind a misconfigured proxy it would lock
 * browsers out.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  // Set as the request arrives (they survive an error answer): an onSend hook would put every
  // answer through one more hook pass.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
});
