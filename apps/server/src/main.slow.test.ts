import { spawn } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shopUrl, siteApi } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');

function start(dataDir: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      WEB_DIST: '/nonexistent',
      OPS_PORT: String(port + 1),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  /** Resolves once the output says `text`; rejects if the process ends first. */
  const said = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => output.includes(text) && resolve();
      check();
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
  const ready = said('Sitemall is running');
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, said, exited, output: () => output };
}

describe('main', () => {
  it('starts on PGlite with demo data, prints the home address, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-main-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    // info: the stop is logged, and the test waits for it.
    const first = start(dataDir, port, { LOG_LEVEL: 'info' });
    await first.ready;
    expect(first.output()).toContain(`http://localhost:${port}/shoppingmall/home?siteId=719`);
    // On loopback the whole demo runs, simulators included.
    expect(first.output()).toContain('Simulators on (this machine only');
    expect((await fetch(`http://127.0.0.1:${port}/simulator/sms/outbox?phone=1`)).status).toBe(200);
    // Metrics answer on the operators' listener only, not on the public port.
    const metrics = await fetch(`http://127.0.0.1:${port + 1}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    // A request whose body is still arriving when the stop signal comes must still be answered.
    const body = '{"siteId":719}';
    const socket = net.connect(port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => {
        text += d;
      });
      socket.on('close', () => resolve(text));
    });
    await new Promise((r) => socket.once('connect', r));
    // A complete request, then the start of the one under test in the same packet: once the
    // first is answered, the server has read the second's headers.
    socket.write(
      `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nPOST ${shopUrl(siteApi.getSiteConfig)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => socket.once('data', r));
    first.child.kill('SIGTERM');
    await first.said('stopping: finishing in-flight requests');
    socket.write(body.slice(5));
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1.1 200/);
    expect(text.split('HTTP/1.1 ')[2]).toMatch(/^200 /);
    expect(text).toContain('"code":200');
    expect(await first.exited).toBe(0);

    // The data written by the first run is still there: a second start seeds nothing.
    const second = start(dataDir, port, { DEMO: 'on' });
    await second.ready;
    expect(second.output()).toContain('DEMO MODE (DEMO=on)');
    const res = await fetch(`http://127.0.0.1:${port}${shopUrl(siteApi.getSiteConfig)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'siteId=10110',
    });
    expect(((await res.json()) as { data: { mallSite: { siteName: string } } }).data.mallSite.siteName).toBe(
      '云企员工福利商城',
    );
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('refuses to start with the simulators on a reachable HOST without DEMO=on, saying what to set', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-main-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const server = start(dataDir, port, { HOST: '0.0.0.0', SIMULATORS: 'on' });
    server.ready.catch(() => {});
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/HOST=0\.0\.0\.0 can be reached from other machines/);
    expect(server.output()).toContain('SIMULATORS=off');
    expect(server.output()).toContain('SIMULATORS=on DEMO=on');
    expect(server.output()).not.toContain('Sitemall is running');
    // It refused before opening anything: no database, no secrets.
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('waits for a database that refuses connections, logging each try, and gives up after DB_CONNECT_TIMEOUT', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-main-'));
    const run = start(dataDir, 20_000 + Math.floor(Math.random() * 20_000), {
      // Nothing listens on port 1.
      DATABASE_URL: 'postgres://root@127.0.0.1:1/nowhere',
      DB_CONNECT_TIMEOUT: '1',
    });
    run.ready.catch(() => {});
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('waiting for the database');
    expect(run.output()).toMatch(/database not reachable after 1 s: .*ECONNREFUSED/);
  });
});
