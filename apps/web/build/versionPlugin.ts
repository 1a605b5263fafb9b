import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** The global the version file sets; the storefront compares it with the stored one (spec section 4). */
export const VERSION_GLOBAL = '__SITEMALL_VERSION__';
export const VERSION_FILE = 'version.js';

const versionScript = (buildId: string) => `window.${VERSION_GLOBAL} = '${buildId}';\n`;

/**
 * Emits dist/version.js with a build id (timestamp + hash of the emitted files) so open tabs
 * notice a new deployment and reload. The dev server answers a fixed 'dev' version.
 */
export function versionPlugin(): Plugin {
  return {
    name: 'sitemall-version',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!req.url?.split('?')[0]?.endsWith(`/${VERSION_FILE}`)) return next();
        res.setHeader('content-type', 'text/javascript; charset=utf-8');
        res.setHeader('cache-control', 'no-store');
        res.end(versionScript('dev'));
      });
    },
    generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      for (const name of Object.keys(bundle).sort()) hash.update(name);
      const buildId = `${Date.now()}-${hash.digest('hex').slice(0, 10)}`;
      this.emitFile({ type: 'asset', fileName: VERSION_FILE, source: versionScript(buildId) });
    },
  };
}
