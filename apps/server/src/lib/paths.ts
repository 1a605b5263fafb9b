import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The server's folder (apps/server), found by walking up to its package.json: the same whether
 * this code runs from src/ through tsx or bundled into dist/ (`npm start`), where a fixed
 * number of `..` would point elsewhere.
 */
function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

export const SERVER_ROOT = packageRoot(import.meta.dirname);
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
