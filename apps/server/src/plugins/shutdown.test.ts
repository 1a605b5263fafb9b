import net from 'node:net';
import { catalogApi, shopUrl } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** The HTTP responses on one socket, split by their status lines. */
const responses = (text: string) =>
  text
    .split(/(?=HTTP\/1\.1 \d{3})/)
    .filter(Boolean)
    .map((raw) => {
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      return { status: Number(head.slice(9, 12)), head: head.toLowerCase(), body };
    });

describe('shutdown', () => {
  it('finishes the request in flight and answers the next one 503 in the envelope', async () => {
    // Test-only hooks tell when the request has arrived and when closing has begun.
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let closingBegan!: () => void;
    const closing = new Promise<void>((resolve) => {
      closingBegan = resolve;
    });
    t.app.addHook('preClose', async () => closingBegan());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The server has the request's head (the response cache reads the body before Fastify sees it).
    t.app.server.once('request', () => arrived());
    const { port } = t.app.server.address() as net.AddressInfo;

    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => {
      text += d;
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise((resolve) => socket.once('connect', resolve));
    const body = '{"siteId":719}';
    // A read the response cache does not keep, so Fastify sees it at once. A kept read's body is
    // read before Fastify sees it: it is answered too (takenIn), with Connection: close, and
    // main.slow.test.ts stops the server under one.
    const request = `POST ${shopUrl(catalogApi.allTemplates)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The first request's body is still arriving when the server starts to close.
    socket.write(`${request}${body.slice(0, 5)}`);
    await requestArrived;
    const closed = t.app.close();
    await closing;
    // Its body completes, and a second request follows on the same connection.
    socket.write(`${body.slice(5)}${request}${body}`);
    await ended;
    await closed;

    const [first, second] = responses(text);
    expect(first?.status).toBe(200);
    expect(JSON.parse(first?.body ?? '')).toMatchObject({ code: 200, success: true });
    expect(second?.status).toBe(503);
    expect(second?.head).toContain('connection: close');
    expect(JSON.parse(second?.body ?? '')).toEqual({
      code: 503,
      msg: '服务正在重启，请稍后再试',
      success: false,
      data: null,
    });
  });
});
