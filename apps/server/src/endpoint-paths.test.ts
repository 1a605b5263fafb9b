import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every endpoint's path is written once, in packages/contract (issue 11): the server serves it
 * with `serve`, the storefront calls it with `call`. This scans the sources of apps/ and
 * packages/ for string literals that start with an API path and names each one found anywhere
 * else.
 */

const ROOT = join(import.meta.dirname, '../../..');
const SCANNED = ['apps', 'packages'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

/** A literal (or a template's text right after `${...}`) starting with an API path. */
const API_PATH = /[`'"}](?:\/front-mall-api)?\/(?:api|app|mall)\/[A-Za-z][^`'"\s]*/g;

/** The one home of paths. */
const CONTRACT = 'packages/contract/';

/**
 * Tests and their fixtures and browser specs call the API as an outside client does: they write
 * the published paths out, so that a path changed in the contract fails them as it would fail
 * such a client.
 */
const isTest = (file: string) =>
  /\.(test|spec)\.tsx?$/.test(file) ||
  file.endsWith('.fixtures.ts') ||
  file.includes('/e2e/') ||
  /^apps\/[^/]+\/src\/test\//.test(file);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** `file:line path` of every API path literal of a file. */
function pathsIn(file: string): string[] {
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(API_PATH)].map((m) => `${file}:${i + 1} ${m[0].slice(1)}`));
}

describe('API paths are written once, in the contract', () => {
  const files = SCANNED.flatMap(sourceFiles);

  it('finds the paths where they live (the scan sees literals)', () => {
    expect(files.length).toBeGreaterThan(100);
    const contract = files.filter((f) => f.startsWith(CONTRACT)).flatMap(pathsIn);
    expect(contract.some((hit) => hit.endsWith(' /api/productCarts/getCartProduct'))).toBe(true);
    expect(contract.some((hit) => hit.endsWith(' /api/order/myOrderList'))).toBe(true);
  });

  it('no source outside packages/contract writes an API path', () => {
    const offenders = files.filter((f) => !f.startsWith(CONTRACT) && !isTest(f)).flatMap(pathsIn);
    expect(offenders).toEqual([]);
  });
});
