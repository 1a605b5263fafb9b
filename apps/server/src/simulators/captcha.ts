import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope } from '@sitemall/contract';
import type { Db } from '../db/client';
import { ok } from '../lib/envelope';
import { failure } from '../lib/errors';
import { peekImageCode } from '../modules/identity/captcha';

/**
 * Reads an image code's answer, as the SMS outbox reads a code, so automated demos and browser
 * tests can pass the captcha. Only served while SIMULATORS=on, like every /simulator route.
 */
export const captchaSimulatorRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, opts) => {
  app.get(
    '/simulator/captcha/answer',
    {
      schema: {
        tags: ['simulator'],
        summary: '模拟器：读取图形验证码的答案（仅测试与演示）',
        querystring: Type.Object({ captchaId: Type.String({ maxLength: 64 }) }),
        response: { 200: Envelope(Type.Object({ answer: Type.String() })) },
      },
    },
    async (req) => {
      const answer = await peekImageCode(opts.db, req.query.captchaId);
      if (!answer) throw failure('图形验证码不存在或已过期');
      return ok({ answer });
    },
  );
};
