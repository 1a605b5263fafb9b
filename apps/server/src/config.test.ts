import { describe, expect, it } from 'vitest';
import { isLoopback, readConfig } from './config';

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
      SIMULATORS: 'off',
      OPS_PORT: '9100',
      OPS_HOST: '10.0.0.5',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h/db',
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'warn',
      simulators: false,
      ops: { port: 9100, host: '10.0.0.5' },
    });
  });

  it('fails with a list of everything that is wrong', () => {
    expect(() =>
      readConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://x' }),
    ).toThrow(
      /PORT must be[\s\S]*LOG_LEVEL must be[\s\S]*DATABASE_URL must start[\s\S]*REDIS_URL must start/,
    );
  });

  it('runs the whole demo on loopback: simulators on, operators listener on 127.0.0.1:9464', () => {
    expect(readConfig({})).toMatchObject({
      simulators: true,
      demo: false,
      ops: { port: 9464, host: '127.0.0.1' },
    });
    expect(readConfig({ HOST: '::1', SIMULATORS: 'on' }).simulators).toBe(true);
    expect(readConfig({ SIMULATORS: 'off' }).simulators).toBe(false);
  });

  it('keeps the simulators off on a reachable HOST unless a demo is announced', () => {
    expect(readConfig({ HOST: '0.0.0.0' })).toMatchObject({ simulators: false, demo: false });
    expect(readConfig({ HOST: '0.0.0.0', SIMULATORS: 'off' }).simulators).toBe(false);
    expect(readConfig({ HOST: '0.0.0.0', DEMO: 'on' })).toMatchObject({ simulators: true, demo: true });
    expect(readConfig({ HOST: '10.1.2.3', SIMULATORS: 'on', DEMO: 'on' })).toMatchObject({
      simulators: true,
      demo: true,
    });
  });

  it('refuses simulators on a reachable HOST without DEMO=on, and says what to set', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'mall.example.com']) {
      expect(() => readConfig({ HOST, SIMULATORS: 'on' })).toThrow(
        /SIMULATORS=on would let anyone[\s\S]*SIMULATORS=off[\s\S]*SIMULATORS=on DEMO=on[\s\S]*HOST=127\.0\.0\.1/,
      );
    }
    expect(() => readConfig({ DEMO: 'yes' })).toThrow(/DEMO must be on or off/);
  });

  it('tells loopback hosts from reachable ones', () => {
    for (const host of ['127.0.0.1', '127.8.0.1', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.com', '127.example.com'])
      expect(isLoopback(host), host).toBe(false);
  });

  it('turns the operators listener off with OPS_PORT=0 or off, and checks the port', () => {
    expect(readConfig({ OPS_PORT: '0' }).ops).toBeUndefined();
    expect(readConfig({ OPS_PORT: 'off' }).ops).toBeUndefined();
    expect(() => readConfig({ OPS_PORT: '70000' })).toThrow(/OPS_PORT must be 1-65535, 0 or off/);
    expect(() => readConfig({ PORT: '9464' })).toThrow(/OPS_PORT must differ from PORT/);
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

describe('readConfig: database wait and workers', () => {
  it('waits 60 s for the database by default; one worker on PGlite, WORKERS on PostgreSQL', () => {
    expect(readConfig({})).toMatchObject({ dbConnectTimeoutSeconds: 60, workers: 1 });
    expect(
      readConfig({ DB_CONNECT_TIMEOUT: '5', WORKERS: '3', DATABASE_URL: 'postgres://u@h/db' }),
    ).toMatchObject({ dbConnectTimeoutSeconds: 5, workers: 3 });
  });

  it('refuses a bad wait, a bad worker count, and several workers on one PGlite', () => {
    expect(() => readConfig({ DB_CONNECT_TIMEOUT: 'soon', WORKERS: '0' })).toThrow(
      /DB_CONNECT_TIMEOUT must be[\s\S]*WORKERS must be/,
    );
    expect(() => readConfig({ WORKERS: '2' })).toThrow(/WORKERS above 1 needs DATABASE_URL/);
  });
});

describe('readConfig: replica, pooler', () => {
  it('reads the replica, the direct URL and DATABASE_PREPARED; named statements by default', () => {
    expect(readConfig({ DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({
      replicaUrl: undefined,
      directUrl: undefined,
      namedStatements: true,
    });
    expect(
      readConfig({
        DATABASE_URL: 'postgres://u@bouncer:6432/db',
        DATABASE_REPLICA_URL: 'postgres://u@replica/db',
        DATABASE_DIRECT_URL: 'postgres://u@primary/db',
        DATABASE_PREPARED: 'off',
      }),
    ).toMatchObject({
      replicaUrl: 'postgres://u@replica/db',
      directUrl: 'postgres://u@primary/db',
      namedStatements: false,
    });
  });

  it('refuses a replica without a primary, a bad URL and a bad DATABASE_PREPARED', () => {
    expect(() => readConfig({ DATABASE_REPLICA_URL: 'postgres://u@replica/db' })).toThrow(
      /DATABASE_REPLICA_URL needs DATABASE_URL/,
    );
    expect(() =>
      readConfig({
        DATABASE_URL: 'postgres://u@h/db',
        DATABASE_DIRECT_URL: 'mysql://x',
        DATABASE_PREPARED: 'maybe',
      }),
    ).toThrow(/DATABASE_DIRECT_URL must start[\s\S]*DATABASE_PREPARED must be on or off/);
  });
});
