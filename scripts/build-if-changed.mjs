#!/usr/bin/env node
/**
 * `npm start` builds only what changed: each target's sources are hashed (paths and contents)
 * and the hash is stored next to its output; a build runs only when the output is missing or the
 * stored hash differs. Targets: `web` (the storefront, Vite), `admin` (the operator console, Vite) and `server` (compiled JavaScript,
 * apps/server/build.mjs). Usage: node scripts/build-if-changed.mjs web admin server
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Both read the contract's sources and the installed versions (package-lock.json). */
const shared = ['packages/contract/src', 'packages/contract/package.json', 'package-lock.json'];
const TARGETS = {
  web: {
    inputs: [
      'apps/web/src',
      'apps/web/build',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
      ...shared,
    ],
    stamp: 'apps/web/dist/.source-hash',
    build: () => execFileSync(npm, ['run', 'build', '-w', '@sitemall/web'], { cwd: root, stdio: 'inherit' }),
  },
  admin: {
    inputs: [
      'apps/admin/src',
      'apps/admin/index.html',
      'apps/admin/vite.config.ts',
      'apps/admin/package.json',
      'apps/admin/tsconfig.json',
      ...shared,
    ],
    stamp: 'apps/admin/dist/.source-hash',
    build: () =>
      execFileSync(npm, ['run', 'build', '-w', '@sitemall/admin'], { cwd: root, stdio: 'inherit' }),
  },
  server: {
    inputs: ['apps/server/src', 'apps/server/build.mjs', 'apps/server/package.json', ...shared],
    stamp: 'apps/server/dist/.source-hash',
    build: () => execFileSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' }),
  },
};

function addFiles(hash, base, relative) {
  const full = path.join(base, relative);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) addFiles(hash, base, path.posix.join(relative, name));
    return;
  }
  hash.update(`${relative}\0`);
  hash.update(readFileSync(full));
  hash.update('\0');
}

/** sha256 over the paths (relative to `base`) and contents of every file under `inputs`. */
export function sourceHash(inputs, base = root) {
  const hash = createHash('sha256');
  for (const input of inputs) addFiles(hash, base, input);
  return hash.digest('hex');
}

const names = process.argv.slice(2);
for (const name of names) {
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown build target ${name}; known: ${Object.keys(TARGETS).join(', ')}`);
  const stamp = path.join(root, target.stamp);
  const current = sourceHash(target.inputs);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === current) continue;
  console.log(`building ${name}: its sources changed since the last build`);
  target.build();
  writeFileSync(stamp, `${current}\n`);
}
