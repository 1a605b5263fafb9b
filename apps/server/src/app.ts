import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import type { TokenResolver } from './context';
import type { Database } from './db/client';
import type { Secrets } from './lib/secrets';
import { mediaRoutes } from './modules/media/media.routes';
import { siteRoutes } from './modules/site/site.routes';
import type { SiteCache } from './modules/site/site.service';
import { BODY_LIMIT, bodyPlugin } from './plugins/body';
import { contextPlugin } from './plugins/context';
import { docsPlugin } from './plugins/docs';
import { errorsPlugin } from './plugins/errors';
import { observabilityPlugin } from './plugins/observability';
import { storefrontPlugin } from './plugins/storefront';

export interface AppDeps {
  database: Database;
  secrets: Secrets;
  sites: SiteCache;
  /** Built storefront; absent in API-only tests. */
  webDist?: string;
  logger?: FastifyServerOptions['logger'];
  resolveToken?: TokenResolver;
}

export const API_PREFIX = '/front-mall-api';
const REQUEST_ID = /^[\w.-]{1,64}$/;

/** Builds the whole HTTP application from its dependencies; it opens nothing itself. */
export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    logger: deps.logger ?? false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: { coerceTypes: true, removeAdditional: true, useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(errorsPlugin);
  await app.register(docsPlugin);
  await app.register(observabilityPlugin, { database: deps.database });
  await app.register(bodyPlugin);
  await app.register(contextPlugin, {
    db: deps.database.db,
    sites: deps.sites,
    resolveToken: deps.resolveToken,
  });

  await app.register(
    async (api) => {
      await api.register(siteRoutes, { sites: deps.sites, hotlineKey: deps.secrets.hotlineKey });
    },
    { prefix: API_PREFIX },
  );

  await app.register(mediaRoutes, { sites: deps.sites });
  if (deps.webDist) await app.register(storefrontPlugin, { webDist: deps.webDist, sites: deps.sites });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
