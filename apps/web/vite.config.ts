import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { versionPlugin } from './build/versionPlugin.ts';

const apiTarget = process.env.SITEMALL_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/shoppingmall/',
  plugins: [react(), versionPlugin()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    proxy: {
      '/front-mall-api': { target: apiTarget, changeOrigin: true },
      // Demo images of the seeded sites are served by the API server.
      '/media': { target: apiTarget, changeOrigin: true },
    },
  },
  test: {
    name: 'web',
    // Threads: from the root, the server's forks pool runs beside this one (../../vitest.config.ts).
    pool: 'threads',
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // Component tests render antd pages; the default 5 s is too short when the cores are shared.
    testTimeout: 30_000,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
  },
});
