import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT } from './body';

/**
 * Inside an encapsulated plugin, every request body arrives as the exact text received
 * (a string, never parsed): signatures (WeChat Pay v3) are checked over the raw bytes, and
 * parsing and re-serialising JSON would change them.
 */
export function rawTextBodies(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
    done(null, typeof body === 'string' ? body : body.toString('utf8')),
  );
}
