import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.SITEMALL_API ?? 'http://127.0.0.1:8080';

/** The operator console: served by the API server under /admin/ (plugins/console.ts). */
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 3000 },
  server: { proxy: { '/admin-api': { target: apiTarget, changeOrigin: true } } },
});
