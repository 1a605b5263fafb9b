#!/usr/bin/env node
/**
 * The storefront's JavaScript budget (issue 16): the JavaScript a first visit loads before the
 * page can run (the entry script of dist/index.html and every module it preloads, i.e. its
 * static imports) must stay within 170 KB gzip. Prints each file and fails (exit 1) above it.
 *
 * Then, for the pages Lighthouse measures, what a first visit loads before the page can draw:
 * the entry, the site's frame and the mall layout, the page's own chunk, and every chunk they
 * import statically (a chunk shared with another page brings that page's imports: the product
 * page once loaded the flash-sale page's Tabs and Progress and the search page's Pagination with
 * its Select: 417 KB gzip in 47 files, 316 KB in 34 since). Each has a budget a
 * little above its size at the time, so a page that grows fails here, not in Lighthouse's noise.
 * Run after `vite build`: node build/js-budget.mjs [dist]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Issue 16's goal; JS_BUDGET_KB overrides it (CI holds a ratchet there until the goal is met). */
const BUDGET_KB = Number(process.env.JS_BUDGET_KB ?? 170);
const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const base = '/shoppingmall/';
const initial = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((m) => m[1].replace(base, ''));
if (initial.length === 0) throw new Error(`no entry script in ${dist}/index.html`);

/** KB gzip of the first draw of the pages Lighthouse measures (routes/router.tsx: their parts). */
const PAGE_BUDGETS_KB = { home: 300, searchList: 360, productDetails: 330 };

/** Each file read and compressed once: the pages share most of their chunks (React, antd-core). */
const sizes = new Map();
function sizeOf(file) {
  let size = sizes.get(file);
  if (!size) {
    const bytes = readFileSync(path.join(dist, file));
    size = { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 };
    sizes.set(file, size);
  }
  return size;
}

let total = 0;
const rows = initial.map((file) => {
  const { raw, gzip } = sizeOf(file);
  total += gzip;
  return { file, 'KB raw': raw.toFixed(1), 'KB gzip': gzip.toFixed(1) };
});
console.table(rows);
console.log(`initial JavaScript: ${total.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
let over = total > BUDGET_KB;
if (over) console.error(`over the budget by ${(total - BUDGET_KB).toFixed(1)} KB`);

const assets = readdirSync(path.join(dist, 'assets'));
/** The built chunk of a module named so (Vite names a chunk after its first module). */
const chunkOf = (name) => {
  const file = assets.find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'));
  if (!file) throw new Error(`no chunk named ${name} in ${dist}/assets`);
  return `assets/${file}`;
};
/** A chunk and every chunk it imports statically (`import ... from"./x.js"`, not `import("./x.js")`). */
function staticClosure(files) {
  const seen = new Set();
  const next = [...files];
  while (next.length > 0) {
    const file = next.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) next.push(`assets/${m[1]}`);
  }
  return seen;
}
const pages = Object.entries(PAGE_BUDGETS_KB).map(([page, budget]) => {
  const files = staticClosure([initial[0], chunkOf('Frame'), chunkOf('MallLayout'), chunkOf(page)]);
  const kb = [...files].reduce((sum, file) => sum + sizeOf(file).gzip, 0);
  if (kb > budget) over = true;
  return { page, files: files.size, 'KB gzip': kb.toFixed(1), budget, '': kb > budget ? 'OVER' : 'ok' };
});
console.log('first draw of the pages Lighthouse measures:');
console.table(pages);
if (over) process.exit(1);
