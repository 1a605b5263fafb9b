import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

describe('readConfig', () => {
  it('has defaults for a fresh machine: port 8080 on loopback, PGlite under ./data', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      databaseUrl: undefined,
      redisUrl: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h/db',
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'warn',
    });
  });

  it('fails with a list of everything that is wrong', () => {
    expect(() =>
      readConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://x' }),
    ).toThrow(
      /PORT must be[\s\S]*LOG_LEVEL must be[\s\S]*DATABASE_URL must start[\s\S]*REDIS_URL must start/,
    );
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default, and reads a hop count or a list of proxy addresses and CIDRs', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(readConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses what is neither', () => {
    for (const bad of ['true', '0', '99', 'lb.internal', '10.0.0.0/33', '10.0.0.1/8/1'])
      expect(() => readConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });
});
