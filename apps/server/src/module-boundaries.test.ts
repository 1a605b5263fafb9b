import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Module boundaries (issue 11, architecture.md): a module owns its tables; another module calls
 * its service, never its tables. This scans the sources under src/modules for imports of another
 * module's `*.tables.ts` (or of db/schema, which re-exports every table), for raw SQL that
 * names another module's table after from/join/update/into, and for imports against a
 * dependency that goes one way only.
 */

const MODULES = join(import.meta.dirname, 'modules');

/**
 * What may cross anyway:
 * - tests and fixtures set up and inspect data the way an operator's SQL would;
 * - a tables file may import another's tables for a foreign key (a schema declaration that the
 *   database enforces, not a read).
 */
const isExempt = (file: string) =>
  /\.test\.ts$/.test(file) || file.endsWith('.fixtures.ts') || file.endsWith('.tables.ts');

/**
 * Crossings not fixed yet, `importer -> what`, each with its reason. Empty today; an entry that
 * no longer occurs fails the test, so the list only shrinks.
 */
const ALLOWED = new Set<string>([]);

interface Source {
  /** Relative to src/modules, e.g. `order/expiry.ts`. */
  file: string;
  text: string;
}

/**
 * [user, used]: `used` never imports `user`. Order calls payment (codes, refunds); a payment
 * reaches its order through the `orderPaid` service the order module hands to createWechatPay.
 * Packs calls payment for WeChat purchases; a payment reaches its pack order through the
 * service registered with `registerPayee('pack', ...)` (app.ts).
 */
const ONE_WAY: readonly (readonly [string, string])[] = [
  ['order', 'payment'],
  ['packs', 'payment'],
];

const moduleOf = (file: string) => file.split('/')[0] as string;

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const SQL_TABLE = /\b(?:from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const TABLE_NAME = /pgTable\(\s*'([a-z0-9_]+)'/g;

/** Every crossing found, as `importer -> what`. */
function crossings(sources: readonly Source[]): string[] {
  const owner = new Map<string, string>();
  for (const s of sources.filter((s) => s.file.endsWith('.tables.ts')))
    for (const [, table] of s.text.matchAll(TABLE_NAME)) owner.set(table as string, moduleOf(s.file));
  const found = new Set<string>();
  for (const { file, text } of sources) {
    if (isExempt(file)) continue;
    const own = moduleOf(file);
    for (const [, spec] of text.matchAll(IMPORT)) {
      if (!spec?.startsWith('.')) continue;
      const target = normalize(join(dirname(file), spec)).replaceAll('\\', '/');
      if (ONE_WAY.some(([user, used]) => own === used && moduleOf(target) === user))
        found.add(`${file} -> ${moduleOf(target)} (one way)`);
      if (/(^|\/)db\/schema(\.ts)?$/.test(target)) found.add(`${file} -> db/schema`);
      else if (/\.tables(\.ts)?$/.test(target) && moduleOf(target) !== own)
        found.add(`${file} -> ${target.replace(/\.ts$/, '')}`);
    }
    // Raw SQL lives in template literals; comments and prose rarely read "from <table_name>".
    for (const [, name] of text.matchAll(SQL_TABLE)) {
      const table = owner.get((name as string).toLowerCase());
      if (table && table !== own) found.add(`${file} -> sql ${name}`);
    }
  }
  return [...found].sort();
}

function sourcesUnder(dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ file: relative(MODULES, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }];
  });
}

describe('module boundaries', () => {
  it('sees a tables import, a schema import, raw SQL of another module and a one-way breach', () => {
    const sources: Source[] = [
      { file: 'order/order.tables.ts', text: "export const mallOrder = pgTable('mall_order', {});" },
      {
        file: 'payment/payment.tables.ts',
        text: "export const wechatCode = pgTable(\n  'wechat_code', {});",
      },
      { file: 'payment/pay.ts', text: "import { mallOrder } from '../order/order.tables';" },
      { file: 'payment/sum.ts', text: "import { mallOrder } from '../../db/schema';" },
      { file: 'order/expiry.ts', text: 'sql`select 1 from wechat_code c`' },
      { file: 'payment/back.ts', text: "import type { OrderRow } from '../order/order.service';" },
      { file: 'order/own.ts', text: "import { mallOrder } from './order.tables'; sql`update mall_order`" },
      { file: 'payment/pay.test.ts', text: "import { mallOrder } from '../order/order.tables';" },
    ];
    expect(crossings(sources)).toEqual([
      'order/expiry.ts -> sql wechat_code',
      'payment/back.ts -> order (one way)',
      'payment/pay.ts -> order (one way)',
      'payment/pay.ts -> order/order.tables',
      'payment/sum.ts -> db/schema',
    ]);
  });

  it('no module reads another module’s tables (imports or raw SQL), order → payment one way', () => {
    const found = crossings(sourcesUnder(MODULES));
    expect(found.filter((c) => !ALLOWED.has(c))).toEqual([]);
    // A fixed crossing leaves the allow-list.
    expect([...ALLOWED].filter((c) => !found.includes(c))).toEqual([]);
  });
});
