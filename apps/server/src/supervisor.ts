import cluster, { type Worker } from 'node:cluster';

export interface SupervisorLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SuperviseOptions {
  workers: number;
  /** The worker's entry module. */
  exec: string;
  /** Node flags of the workers (default: this process's, e.g. tsx's loader). */
  execArgv?: string[];
  log: SupervisorLog;
  /** First restart delay; it doubles with each crash in a row (default 1 s). */
  minRestartMs?: number;
  /** Longest restart delay (default 30 s). */
  maxRestartMs?: number;
  /** A worker that ran this long resets the crash count (default 60 s). */
  stableMs?: number;
}

/** Delay before the n-th restart in a row (n from 1): min, 2 min, 4 min, ... capped at max. */
export const restartDelay = (crashesInARow: number, minMs: number, maxMs: number) =>
  Math.min(minMs * 2 ** Math.max(0, crashesInARow - 1), maxMs);

/**
 * The production process: a cluster primary that keeps `workers` server processes running on
 * one port. A worker that dies (a crash, an out-of-memory kill) is started again, after a delay
 * that grows while workers keep dying quickly, so a broken deployment does not spin. stop()
 * asks every worker to finish its requests (SIGTERM) and resolves when all have exited.
 */
export function supervise(options: SuperviseOptions) {
  const minMs = options.minRestartMs ?? 1_000;
  const maxMs = options.maxRestartMs ?? 30_000;
  const stableMs = options.stableMs ?? 60_000;
  const { log } = options;
  cluster.setupPrimary({ exec: options.exec, execArgv: options.execArgv ?? process.execArgv });
  const startedAt = new Map<Worker, number>();
  const timers = new Set<NodeJS.Timeout>();
  let crashesInARow = 0;
  let stopping = false;

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    worker.on('exit', (code, signal) => {
      const ranMs = Date.now() - (startedAt.get(worker) ?? Date.now());
      startedAt.delete(worker);
      if (stopping) return;
      crashesInARow = ranMs >= stableMs ? 1 : crashesInARow + 1;
      const delay = restartDelay(crashesInARow, minMs, maxMs);
      log.error(
        { pid: worker.process.pid, code, signal, ranMs, restartInMs: delay },
        'worker died; starting another',
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) fork();
      }, delay);
      timers.add(timer);
    });
    return worker;
  };

  for (let i = 0; i < options.workers; i += 1) fork();
  log.info({ workers: options.workers }, 'supervisor started');

  return {
    /** The workers now running. */
    workers: () => [...startedAt.keys()],
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const running = [...startedAt.keys()].filter((w) => !w.isDead());
      await Promise.all(
        running.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve());
              worker.process.kill(signal);
            }),
        ),
      );
      log.info({}, 'supervisor stopped');
    },
  };
}
