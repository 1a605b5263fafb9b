export interface Job {
  stop(): Promise<void>;
}

/**
 * Runs a task on an interval, never two runs of it at once in this process; stop() waits for
 * a run in progress. The timer does not keep the process alive.
 */
export function startJob(
  run: () => Promise<unknown>,
  options: { intervalMs: number; onError?: (error: unknown) => void },
): Job {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .catch((error) => options.onError?.(error))
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
