import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const apiTarget = process.env.SITEMALL_API ?? 'http://127.0.0.1:8080';

/** The operator console: served by the API server under /admin/ (plugins/console.ts). */
export default defineConfig({
  base: '/admin/',
  // Brotli and gzip siblings of the text assets, served as they are (see apps/web/vite.config.ts).
  plugins: [react(), compression({ threshold: 1024 })],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 3000 },
  server: { proxy: { '/admin-api': { target: apiTarget, changeOrigin: true } } },
});
