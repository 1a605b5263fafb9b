import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope } from '@sitemall/contract';
import type { FastifyBaseLogger } from 'fastify';
import { ok } from '../lib/envelope';
import type { SmsProvider } from '../modules/identity/sms';

export interface SmsMessage {
  siteId: number;
  phone: string;
  text: string;
  sentAt: string;
}

const KEEP_PER_PHONE = 20;
const MAX_PHONES = 10_000;

/**
 * The SMS gateway stand-in: keeps the last messages per phone in memory (readable at
 * GET /simulator/sms/outbox) and logs each one, so a developer can log in on the demo. With the
 * simulators off (`showText: false`) nobody may read the codes: the log says a message was
 * dropped, never its text, so a log reader cannot log in as anyone.
 */
export function createSmsSimulator(log?: Pick<FastifyBaseLogger, 'info'>, { showText = true } = {}) {
  const outbox = new Map<string, SmsMessage[]>();
  const provider: SmsProvider = {
    async send({ siteId, phone, text }) {
      const list = outbox.get(phone) ?? [];
      list.unshift({ siteId, phone, text, sentAt: new Date().toISOString() });
      list.length = Math.min(list.length, KEEP_PER_PHONE);
      if (!outbox.has(phone) && outbox.size >= MAX_PHONES) {
        const oldest = outbox.keys().next().value;
        if (oldest !== undefined) outbox.delete(oldest);
      }
      outbox.set(phone, list);
      if (showText) log?.info({ siteId, phone, text }, 'SMS simulator: message sent');
      else log?.info({ siteId }, 'SMS not sent: no SMS gateway configured (simulators off)');
    },
  };
  return { provider, outbox: (phone: string) => outbox.get(phone) ?? [] };
}
export type SmsSimulator = ReturnType<typeof createSmsSimulator>;

const SmsMessageSchema = Type.Object({
  siteId: Type.Integer(),
  phone: Type.String(),
  text: Type.String(),
  sentAt: Type.String(),
});

export const smsSimulatorRoutes: FastifyPluginAsyncTypebox<{ simulator: SmsSimulator }> = async (
  app,
  opts,
) => {
  app.get(
    '/simulator/sms/outbox',
    {
      schema: {
        tags: ['simulator'],
        summary: '模拟短信网关：某手机号最近收到的短信（最新在前）',
        querystring: Type.Object({ phone: Type.String({ maxLength: 32 }) }),
        response: { 200: Envelope(Type.Array(SmsMessageSchema)) },
      },
    },
    async (req) => ok(opts.simulator.outbox(req.query.phone)),
  );
};
