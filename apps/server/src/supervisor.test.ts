import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restartDelay, supervise } from './supervisor';

const fixture = path.join(import.meta.dirname, 'test/fixtures/worker.mjs');

/** The next `count` workers that report ready. */
const ready = (count: number) =>
  new Promise<Worker[]>((resolve) => {
    const seen: Worker[] = [];
    const onMessage = (worker: Worker, message: { ready?: number }) => {
      if (!message?.ready) return;
      seen.push(worker);
      if (seen.length < count) return;
      cluster.off('message', onMessage);
      resolve(seen);
    };
    cluster.on('message', onMessage);
  });
const pids = (workers: (Worker | undefined)[]) => workers.map((w) => w?.process.pid).sort();

describe('supervisor', () => {
  it('backs off while workers keep dying: 1 s, 2 s, 4 s ... at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelay(n, 1_000, 30_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('starts its workers, starts another when one dies, and stops them all without restarts', async () => {
    const errors: string[] = [];
    const log = { info() {}, warn() {}, error: (_o: object, msg: string) => errors.push(msg) };
    const started = ready(2);
    const supervisor = supervise({ workers: 2, exec: fixture, execArgv: [], log, minRestartMs: 1 });
    await started;
    const [victim, survivor] = supervisor.workers();
    expect(supervisor.workers()).toHaveLength(2);

    const replaced = ready(1);
    victim?.process.kill('SIGKILL');
    const [newcomer] = await replaced;
    expect(errors).toEqual(['worker died; starting another']);
    expect(newcomer?.process.pid).not.toBe(victim?.process.pid);
    expect(pids(supervisor.workers())).toEqual(pids([survivor, newcomer]));

    await supervisor.stop();
    expect(supervisor.workers()).toEqual([]);
    expect(survivor?.isDead() && newcomer?.isDead()).toBe(true);
    expect(errors).toHaveLength(1);
  });
});
