import { defineConfig } from 'vitest/config';

// Threads: from the root, the server's forks pool runs beside this one (../../vitest.config.ts).
export default defineConfig({ test: { name: 'admin', pool: 'threads', include: ['src/**/*.test.ts'] } });
