/**
 * The simulator's background work (notify deliveries, retry and refund timers), counted so
 * tests can await `idle()` and the app can `stop()` it on close. Timers are unref'd: a pending
 * retry never keeps the process alive.
 */
export interface Work {
  /** Counts a running task until it settles; its failure is swallowed (the task logs its own). */
  track(task: Promise<unknown>): void;
  /** Runs `task` after `ms`, counted as pending from now until the task settles. */
  later(ms: number, task: () => Promise<unknown> | undefined): void;
  idle(): Promise<void>;
  stop(): void;
  readonly isStopped: boolean;
}

export function createWork(): Work {
  let pending = 0;
  let isStopped = false;
  const timers = new Map<NodeJS.Timeout, () => void>();
  let waiters: Array<() => void> = [];

  const settle = () => {
    pending -= 1;
    if (pending > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  const track = (task: Promise<unknown>) => {
    pending += 1;
    task.catch(() => undefined).finally(settle);
  };

  return {
    track,
    later(ms, task) {
      if (isStopped) return;
      pending += 1;
      const timer = setTimeout(() => {
        timers.delete(timer);
        track(Promise.resolve().then(task));
        settle();
      }, ms);
      timer.unref();
      timers.set(timer, settle);
    },
    idle: () => (pending === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
    stop() {
      isStopped = true;
      for (const [timer, cancel] of timers) {
        clearTimeout(timer);
        cancel();
      }
      timers.clear();
    },
    get isStopped() {
      return isStopped;
    },
  };
}
