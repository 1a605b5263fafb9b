#!/usr/bin/env node
/**
 * The storefront's Lighthouse budget (issue 16): Lighthouse desktop, in Debian's Chromium, on the
 * home page, a search and a product detail of site 719, as a visitor. Each page runs RUNS times
 * and its median score per category is held against the budget; any category under it fails
 * (exit 1). The scores are written to test-results/lighthouse.json.
 *
 * It starts its own server (the built storefront, PGlite with the demo data in a fresh data
 * directory) so nothing else competes for the CPU while a page is measured.
 * It calls the storefront as a visitor's browser does, from outside (like the journeys beside it).
 * Run after building the storefront (`npm run build -w @sitemall/web`; the server is built here if
 * its sources changed): node --import tsx apps/web/e2e/lighthouse.mjs (tsx loads the contract's
 * TypeScript, where the endpoints' paths are declared)
 *
 * LH_REPORTS=<dir> keeps every run's whole report (JSON, opens in the Lighthouse viewer).
 *
 * Budget: the issue's goals (performance 98, accessibility 95, best practices 100);
 * LH_PERFORMANCE, LH_ACCESSIBILITY and LH_BEST_PRACTICES override them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { catalogApi, shopUrl } from '@sitemall/contract';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const PORT = Number(process.env.LH_PORT ?? 8095);
const RUNS = Number(process.env.LH_RUNS ?? 3);
const base = `http://127.0.0.1:${PORT}`;
const budget = {
  performance: Number(process.env.LH_PERFORMANCE ?? 98),
  accessibility: Number(process.env.LH_ACCESSIBILITY ?? 95),
  'best-practices': Number(process.env.LH_BEST_PRACTICES ?? 100),
};
const categories = Object.keys(budget);

/**
 * The server on the demo data, ready when it has logged where its database is: that line comes
 * after the start-up work that follows listening (the demo's provider orders), which would
 * otherwise share the CPU with the first pages measured.
 */
async function startServer(dataDir) {
  execFileSync('node', ['scripts/build-if-changed.mjs', 'server'], { cwd: repoRoot, stdio: 'inherit' });
  const server = spawn('node', ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, OPS_PORT: 'off', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise((resolve, reject) => {
    let seen = '';
    server.stdout.on('data', (chunk) => {
      seen = (seen + chunk).slice(-4096);
      if (seen.includes('"database: ')) resolve(undefined);
    });
    server.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(new Error('the server was not ready within 180 s')), 180_000).unref(),
  );
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    server.kill();
    throw error;
  }
  server.stdout.resume();
  return server;
}

/** A product of the home page's first floor: the detail page to measure. */
async function aProductOf(siteId) {
  const reply = await fetch(`${base}${shopUrl(catalogApi.homeProductList)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ siteId }),
  }).then((r) => r.json());
  const product = reply.data?.floors?.flatMap((f) => f.list)[0];
  if (!product) throw new Error(`site ${siteId} shows no product on its home page: ${reply.msg}`);
  return product.id;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The metrics behind the performance score, to say why a page is slow. */
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
};

/**
 * One Lighthouse run. A run whose trace Chromium failed to record (NO_NAVSTART, NO_FCP: seen on a
 * busy machine) says nothing about the page; it is run again, at most twice.
 */
async function audit(chrome, url, attempt = 1) {
  const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories };
  const { lhr } = await lighthouse(url, flags, desktopConfig);
  if (!lhr.runtimeError) return lhr;
  if (attempt === 3) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  console.warn(`${url}: ${lhr.runtimeError.code}, running it again`);
  return audit(chrome, url, attempt + 1);
}

async function measure(chrome, url) {
  const scores = Object.fromEntries(categories.map((c) => [c, []]));
  const metrics = Object.fromEntries(Object.keys(METRICS).map((m) => [m, []]));
  for (let i = 0; i < RUNS; i++) {
    const lhr = await audit(chrome, url);
    if (process.env.LH_REPORTS) {
      mkdirSync(process.env.LH_REPORTS, { recursive: true });
      const name = `${new URL(url).pathname.split('/').pop()}-${i + 1}.json`;
      writeFileSync(path.join(process.env.LH_REPORTS, name), JSON.stringify(lhr));
    }
    for (const c of categories) scores[c].push(Math.round((lhr.categories[c].score ?? 0) * 100));
    for (const [m, id] of Object.entries(METRICS)) metrics[m].push(lhr.audits[id].numericValue);
  }
  return {
    scores: Object.fromEntries(categories.map((c) => [c, { median: median(scores[c]), runs: scores[c] }])),
    metrics: Object.fromEntries(Object.entries(metrics).map(([m, xs]) => [m, median(xs)])),
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitemall-lighthouse-'));
const server = await startServer(dataDir);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
let failed = false;
try {
  const productId = await aProductOf(719);
  const pages = {
    home: '/shoppingmall/home?siteId=719',
    search: `/shoppingmall/searchList?itemName=${encodeURIComponent('手机')}&siteId=719`,
    'product detail': `/shoppingmall/productDetails?id=${productId}&siteId=719`,
  };
  const results = {};
  for (const [name, url] of Object.entries(pages)) results[name] = await measure(chrome, base + url);

  console.table(
    Object.entries(results).map(([name, { scores }]) => ({
      page: name,
      ...Object.fromEntries(
        categories.map((c) => [c, `${scores[c].median} (${scores[c].runs.join('/')}) ≥ ${budget[c]}`]),
      ),
    })),
  );
  console.table(
    Object.entries(results).map(([name, { metrics }]) => ({
      page: name,
      ...Object.fromEntries(
        Object.entries(metrics).map(([m, v]) => [m, m === 'CLS' ? v.toFixed(3) : `${Math.round(v)} ms`]),
      ),
    })),
  );
  for (const [name, { scores }] of Object.entries(results)) {
    for (const c of categories) {
      if (scores[c].median < budget[c]) {
        console.error(`${name}: ${c} ${scores[c].median} is under the budget ${budget[c]}`);
        failed = true;
      }
    }
  }
  const out = path.join(repoRoot, 'test-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'lighthouse.json'), JSON.stringify({ budget, runs: RUNS, results }, null, 2));
} finally {
  await chrome.kill();
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
