import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    // One database per worker, shared by its test files (a PGlite start costs seconds and
    // ~0.75 GB); each file starts from freshly seeded data.
    isolate: false,
    fileParallelism: true,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
