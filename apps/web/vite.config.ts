import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import { antdStyles } from './build/antd-styles.ts';
import { versionPlugin } from './build/versionPlugin.ts';

/**
 * Chunks of their own for what every page runs (React, the router, antd's theme and style
 * runtime): they change with upgrades only, so browsers keep them across deployments. antd's
 * components are not grouped: one antd chunk would put every component used on any page into
 * the first load (measured: 539 KB gzip against 349 KB); left to Rollup, each goes with the
 * route chunks that use it.
 */
const VENDOR_CHUNKS: [chunk: string, modules: RegExp][] = [
  ['react', /\/node_modules\/(react|react-dom|scheduler|react-router)\//],
  [
    'antd-core',
    /\/node_modules\/(antd\/es\/(config-provider|theme|_util|style|locale)|@ant-design\/(cssinjs|cssinjs-utils|fast-color|colors)|rc-util|rc-motion|@babel\/runtime)\//,
  ],
];
/**
 * The storefront's own modules that do nothing when imported: all but the entry and the features'
 * index files (a feature's index may import its stylesheet, as the catalogue's does).
 */
const SIDE_EFFECT_FREE = /[\\/]apps[\\/]web[\\/]src[\\/](?!main\.tsx$)(?!.*[\\/]index\.ts$).*\.tsx?$/;

const vendorChunk = (id: string) => VENDOR_CHUNKS.find(([, packages]) => packages.test(id))?.[0];

/**
 * React Router 7's package exports point at its development build in every mode (dev warnings
 * on, 221 KB raw; remix-run/react-router#14102): a production build takes its production build.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

const apiTarget = process.env.SITEMALL_API ?? 'http://127.0.0.1:8080';

export default defineConfig(({ mode }) => ({
  base: '/shoppingmall/',
  // Brotli and gzip siblings of every text asset, sent by the server as they are (preCompressed):
  // no compression work per request, and 1.1 MB of a product page's scripts travel as ~0.3 MB.
  plugins: [react(), antdStyles(), versionPlugin(), compression({ threshold: 1024 })],
  resolve:
    mode === 'production'
      ? {
          alias: [
            { find: /^react-router$/, replacement: reactRouterProduction },
            {
              find: /^@sinclair\/typebox$/,
              replacement: path.join(import.meta.dirname, 'build/typebox-stub.ts'),
            },
          ],
        }
      : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // React and antd change with upgrades only: in chunks of their own they stay cached in the
    // browser across deployments of the storefront's code (the JS budget: build/js-budget.mjs).
    rollupOptions: {
      output: {
        manualChunks: vendorChunk,
        // Chunks under 20 KB merge where that runs no other code: a product page asked for 70
        // scripts, six at a time over HTTP/1.1 (167 files became 108; docs/performance.md).
        experimentalMinChunkSize: 20_000,
      },
      treeshake: {
        // Schemas the storefront never reaches drop out (their TypeBox calls build nothing here).
        manualPureFunctions: ['Type'],
        // What a page takes from a feature's index brings no more of the feature than that.
        moduleSideEffects: (id) => !SIDE_EFFECT_FREE.test(id),
      },
    },
  },
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
    // Component tests render antd pages: seconds each, a minute when the cores are shared.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
  },
}));
