import type { FastifyInstance } from 'fastify';

/**
 * The simulators are a demo: every answer of theirs says so, a header on the JSON ones and a
 * banner on the pages a person sees, so nobody mistakes a demo deployment for a real mall.
 */
export const DEMO_HEADER = 'x-sitemall-demo';
export const DEMO_HEADER_VALUE =
  'simulator: anyone can log in as any member and fake payments here, never use it for real shoppers';
export const DEMO_BANNER = '演示环境：本页为模拟器，任何人都可以在此伪造登录和支付，请勿用于真实交易。';

/** Adds the demo header to every answer of the routes registered in this context. */
export function announceDemo(app: FastifyInstance) {
  app.addHook('onSend', async (_req, reply) => {
    reply.header(DEMO_HEADER, DEMO_HEADER_VALUE);
  });
}
