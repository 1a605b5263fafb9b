import { defineConfig } from 'vitest/config';

/**
 * `npm run test:slow`: files that start real processes (the server, the ops CLI) and the sweeps
 * over every route (malformed input of every field, another site's ids on every endpoint).
 */
export const SLOW_TESTS = 'src/**/*.slow.test.ts';

/**
 * One database per worker, shared by its test files (a PGlite start costs seconds and ~0.75 GB);
 * each file starts from freshly seeded data. When the root runs every workspace as projects,
 * the pool options that count are the root's (../../vitest.config.ts), which repeats these.
 */
export const serverPool = {
  pool: 'forks',
  isolate: false,
  fileParallelism: true,
  poolOptions: { forks: { isolate: false, maxForks: 2, minForks: 1 } },
  // Guards against a hang, not speed checks: on a 2-core machine shared with other work a test
  // app's start (PGlite, migrations, seed) alone has taken over a minute.
  testTimeout: 300_000,
  hookTimeout: 300_000,
} as const;

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: [SLOW_TESTS, '**/node_modules/**'],
    ...serverPool,
  },
});
