import { CODE } from '@sitemall/contract';
import type { FastifyReply } from 'fastify';
import { notModified } from './http-cache';

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
 * These are the public catalogue reads, so they carry an HTTP validator (http-cache.ts): a
 * client that sends back the ETag it holds gets 304 and no body while the answer is the same.
 */
export const sendSerialised = (reply: FastifyReply, json: string) => {
  if (notModified(reply, json)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(json as never);
};

/** Serialised envelopes of answers kept in memory, by the answer object (weakly: they go with it). */
const serialisedOf = new WeakMap<object, string>();

/**
 * Sends `data` in the envelope as sendSerialised does, serialised by the route's own schema
 * once per answer object: a catalogue answer served from memory (catalogue-answers.ts answers
 * the same object until it is dropped) is serialised and hashed for its ETag once, not at
 * every request.
 */
export function sendKept(reply: FastifyReply, data: object) {
  let json = serialisedOf.get(data);
  if (json === undefined) {
    json = String(reply.serialize(ok(data))); // a schema serialiser writes a string
    serialisedOf.set(data, json);
  }
  return sendSerialised(reply, json);
}
