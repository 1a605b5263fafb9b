import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contract from '@sitemall/contract';
import { describe, expect, it } from 'vitest';

/**
 * Every endpoint's path is written once, in packages/contract (issue 11): the server serves it
 * with `serve`, the storefront calls it with `call`, and tests, fixtures and browser specs name
 * it by its endpoint (`orderApi.payOrder.path`, `shopUrl(...)`). This scans the sources of apps/
 * and packages/ for string literals that start with an API path and names each one found
 * anywhere else.
 */

const ROOT = join(import.meta.dirname, '../../..');
const SCANNED = ['apps', 'packages'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

/** A literal (or a template's text right after `${...}`) starting with an API path. */
const API_PATH = /[`'"}](?:\/front-mall-api)?\/(?:api|app|mall|sys)\/[A-Za-z][^`'"\s]*/g;

/** Every path the contract declares (the `*Api` tables of endpoints). */
const DECLARED = new Set(
  Object.entries(contract)
    .filter(([name]) => name.endsWith('Api'))
    .flatMap(([, table]) => Object.values(table as Record<string, { path?: unknown }>))
    .flatMap((declared) => (typeof declared.path === 'string' ? [declared.path] : [])),
);

/** The one home of paths. */
const CONTRACT = 'packages/contract/';

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
    const inContract = files.filter((f) => f.startsWith(CONTRACT)).flatMap(pathsIn);
    for (const declared of [contract.cartApi.getCartProduct, contract.orderApi.myOrderList])
      expect(inContract.some((hit) => hit.endsWith(` ${declared.path}`))).toBe(true);
  });

  it('no source outside packages/contract writes a declared path', () => {
    expect(DECLARED.size).toBeGreaterThan(300);
    const offenders = files
      .filter((f) => !f.startsWith(CONTRACT))
      .flatMap(pathsIn)
      .filter((hit) =>
        DECLARED.has(
          hit
            .split(' ')[1]
            ?.replace(/^\/front-mall-api/, '')
            .split('?')[0] ?? '',
        ),
      );
    expect(offenders).toEqual([]);
  });
});
