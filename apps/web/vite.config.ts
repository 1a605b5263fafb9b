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
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
  },
});
