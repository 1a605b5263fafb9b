import { defineConfig } from 'vitest/config';

/**
 * `npm test`: contract, server, web and console in one vitest process. Each pool runs beside
 * the others: the server's files in forks that keep their database between files
 * (apps/server/vitest.config.ts), contract, web and console in threads. Pool options are read from here, not from the projects.
 * The slow server files (real processes) are `npm run test:slow`.
 */
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'apps/admin'],
    poolOptions: {
      forks: { isolate: false, maxForks: 2, minForks: 1 },
      threads: { maxThreads: 2, minThreads: 1 },
    },
  },
});
