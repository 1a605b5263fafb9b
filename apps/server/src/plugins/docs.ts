import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The simulators' routes: tools of the local demo, never part of the published API. */
export const SIMULATOR_PREFIX = '/simulator/';

/** OpenAPI generated from the route schemas, browsable at /front-mall-api/docs. */
export const docsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Sitemall shopper API',
        version: '1.0.0',
        description: '积分商城 PC 端接口；应答统一为 {code,msg,success,data}。',
      },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } },
      },
    },
    // The docs are public: listing how to mint logins and fake payments would be a map for anyone.
    transform: ({ schema, url }) => ({
      schema: url.startsWith(SIMULATOR_PREFIX) ? { ...schema, hide: true } : schema,
      url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/front-mall-api/docs' });
});
