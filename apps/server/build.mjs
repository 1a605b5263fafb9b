/**
 * `npm run build -w @sitemall/server`: the production server as compiled JavaScript in dist/
 * (`npm start` runs it with plain node; tsx stays for `npm run dev` and the tests). esbuild
 * bundles the server's sources and the workspace contract (whose package exports TypeScript);
 * every other dependency stays an import from node_modules.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !name.startsWith('@sitemall/'))
  .flatMap((name) => [name, `${name}/*`]);

// A clean folder: no chunk of an earlier build is left, and no source hash, so `npm start` does
// not trust a build made by hand (scripts/build-if-changed.mjs).
rmSync(path.join(here, 'dist'), { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts', 'src/cluster.ts'].map((f) => path.join(here, f)),
  outdir: path.join(here, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
