import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The ops CLI end to end: real processes, as an operator runs it, on a PGlite folder, or on a
 * PostgreSQL database of its own when TEST_DATABASE_URL is set (CI runs both).
 */
const serverDir = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
/** With TEST_DATABASE_URL, a database of this file's own next to the harness's per-worker ones. */
const base = process.env.TEST_DATABASE_URL;
const databaseUrl = base ? base.replace(/\/([^/]*)$/, (_, name) => `/${name || 'sitemall_test'}_ops`) : '';

/** Runs one statement on the PostgreSQL server of TEST_DATABASE_URL, about the ops database. */
async function onServer(statement: (name: string) => string) {
  if (!base) return;
  const admin = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  try {
    await admin.query(statement(pg.escapeIdentifier(new URL(databaseUrl).pathname.slice(1))));
  } finally {
    await admin.end();
  }
}

function run(script: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}
const ops = (...args: string[]) => run('src/cli/ops.ts', args);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-ops-'));
  await onServer((name) => `drop database if exists ${name} with (force)`);
  await onServer((name) => `create database ${name}`);
  expect((await run('src/db/seed-cli.ts', [])).code).toBe(0);
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await onServer((name) => `drop database if exists ${name} with (force)`);
});

describe('npm run ops', () => {
  it('issues points to one member, once per request id', async () => {
    const args = [
      'issue-points',
      '--site',
      '719',
      '--phone',
      '13800000719',
      '--amount',
      '100.00',
      '--request-id',
      'ops-test-1',
    ];
    const first = await ops(...args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Issued 100\.00 to 13800000719 .* balance 10100\.00/);
    const again = await ops(...args);
    expect(again.stdout).toMatch(/^Already issued \(nothing changed\): 100\.00 .* balance 10100\.00/);
  });

  it('issues a CSV file with progress on stderr and a report next to it; a re-run issues nothing', async () => {
    const file = path.join(dataDir, 'april.csv');
    await writeFile(file, 'phone,amount,note\n13800000719,0.50,四月\n13800000719,1.001,bad\n');
    const first = await ops('issue-points', '--site', '719', '--csv', file);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('issue-points 2/2 100%');
    expect(first.stdout).toContain('2 rows: 1 issued (0.50), 0 already issued, 1 refused.');
    const report = await readFile(`${file}.report.csv`, 'utf8');
    expect(report.split('\n')[0]).toBe(
      '\uFEFFline,account,amount,note,requestId,result,detail,entryId,balanceAfter',
    );
    expect(report).toMatch(/\n2,13800000719,0\.50,四月,,ok,已发放,\d+,10100\.50\n/);
    expect(report).toMatch(/\n3,13800000719,1\.001,bad,,error,金额不正确/);
    const second = await ops('issue-points', '--site', '719', '--csv', file);
    expect(second.stdout).toContain('2 rows: 0 issued (0.00), 1 already issued, 1 refused.');
  });

  it('checks the books: they add up after the issues above', async () => {
    const books = await ops('check-books');
    expect(books.code).toBe(0);
    expect(books.stdout).toMatch(/^points_balance +\d+ checked {2}ok/m);
    expect(books.stdout).not.toContain('NOT ADDING UP');
  });

  it('refuses clearly and explains usage', async () => {
    const ship = await ops(
      'ship',
      '--site',
      '719',
      '--child-order',
      'SO2026000000000001',
      '--company',
      '顺丰速运',
      '--tracking',
      'SF1234567',
    );
    expect(ship.code).toBe(1);
    expect(ship.stderr).toContain('Refused: 站点 719 没有子订单 SO2026000000000001');
    const refund = await ops('refund', '--site', '719');
    expect(refund.code).toBe(2);
    expect(refund.stderr).toContain('--order is required');
    expect((await ops('frobnicate', '--site', '1')).stderr).toContain('unknown command');
  });
});
