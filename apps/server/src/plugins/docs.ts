import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
  });
  await app.register(swaggerUi, { routePrefix: '/front-mall-api/docs' });
});
