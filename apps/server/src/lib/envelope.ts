import { CODE } from '@sitemall/contract';
import type { FastifyReply } from 'fastify';

export const ok = <T>(data: T, msg = 'success') => ({ code: CODE.ok, msg, success: true, data });
export const fail = (code: number, msg: string, data: unknown = null) => ({
  code,
  msg,
  success: false,
  data,
});

/**
 * Sends an answer already serialised (the site tests check it against its schema), for
 * hot reads whose answer changes rarely. The typed reply only knows objects, hence the cast.
 */
export const sendSerialised = (reply: FastifyReply, json: string) =>
  reply.type('application/json; charset=utf-8').send(json as never);
