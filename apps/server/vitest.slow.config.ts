import { defineConfig } from 'vitest/config';
import { SLOW_TESTS, serverPool } from './vitest.config';

/** `npm run test:slow` (SLOW_TESTS): real processes and the every-route sweeps; CI runs it after `npm test`. */
export default defineConfig({
  test: {
    name: 'server-slow',
    include: [SLOW_TESTS],
    ...serverPool,
    // Each start of a process compiles TypeScript and opens a database: minutes on a busy machine.
    testTimeout: 300_000,
  },
});
