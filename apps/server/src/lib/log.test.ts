import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../test/harness';
import { safeError, safeLoggerOptions } from './log';

const SECRET_PARAM = 'secret-13812345678';
const SECRET_BODY = 'body-secret-南京市中山路1号';

describe('error logs', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await testApp({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    // A route whose query fails in the database with a client value as its parameter.
    t.app.post('/front-mall-api/test/fault', async (req) => {
      const { value } = req.body as { value: string };
      await t.db.execute(sql`select ${value}::int as n`);
      return 'unreachable';
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an unexpected database fault logs request id, route and error class, never SQL, parameters or body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/front-mall-api/test/fault',
      headers: { 'x-request-id': 'req-log-test-1' },
      payload: { value: SECRET_PARAM, note: SECRET_BODY },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, msg: '服务器繁忙，请稍后再试', success: false, data: null });

    const logged = lines.filter((l) => l.includes('req-log-test-1'));
    const fault = logged.map((l) => JSON.parse(l)).find((l) => l.msg === 'unexpected fault');
    expect(fault).toMatchObject({
      level: 50,
      reqId: 'req-log-test-1',
      route: 'POST /front-mall-api/test/fault',
      errorClass: 'DrizzleQueryError',
      err: { type: 'DrizzleQueryError', message: 'Failed query', cause: { code: '22P02' } },
    });
    const text = logged.join('\n');
    expect(text).not.toContain(SECRET_PARAM);
    expect(text).not.toContain('13812345678');
    expect(text).not.toContain('body-secret');
    expect(text).not.toMatch(/select|params:/i);
    // A few hundred bytes, not a dump.
    expect(text.length).toBeLessThan(4000);
  });
});

describe('safeError and the logger options', () => {
  it('keeps the names of schema objects, hides quoted values and the message line of the stack', () => {
    const error = Object.assign(
      new Error('duplicate key value violates unique constraint "member_phone_uq": "13800000719"'),
      { code: '23505', constraint: 'member_phone_uq', detail: 'Key (phone)=(13800000719) already exists.' },
    );
    const safe = safeError(error);
    expect(safe).toMatchObject({
      type: 'Error',
      code: '23505',
      constraint: 'member_phone_uq',
      message: 'duplicate key value violates unique constraint "member_phone_uq": "?"',
    });
    expect(JSON.stringify(safe)).not.toContain('13800000719');
    expect(safe.stack).toMatch(/^\s+at /);
  });

  it('redacts bodies and tokens whatever a call site passes', () => {
    const lines: string[] = [];
    const options = safeLoggerOptions({ level: 'info' });
    if (!options || options === true) throw new Error('logger options expected');
    const log = pino(options as pino.LoggerOptions, { write: (line: string) => void lines.push(line) });
    log.info({ body: { phone: '13800000719' }, headers: { token: 'tok-secret' } }, 'something');
    const text = lines.join('');
    expect(text).not.toContain('13800000719');
    expect(text).not.toContain('tok-secret');
    expect(text).toContain('[redacted]');
  });
});
