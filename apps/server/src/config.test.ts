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
