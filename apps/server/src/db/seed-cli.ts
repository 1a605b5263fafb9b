import { progressBar } from '../cli/progress';
import { readConfig } from '../config';
import { openDatabase } from './client';
import { seedLargeCatalog } from './demo/catalog';
import { scaleCounts, seedScale } from './demo/scale';
import { resetData, seedDemo } from './seed';

/**
 * npm run seed [-- --reset] [-- --large] [-- --scale[=factor]]: seed the demo data; --reset empties
 * the database first; --large adds a 100,000-product catalogue sold on site 1000 (for benchmarks);
 * --scale tops the data up to a large deployment (1,000 sites, 1,000,000 products, 10,000,000
 * ledger entries; PostgreSQL), with a progress bar per step; --scale=0.01 seeds a hundredth.
 */
const config = readConfig();
const database = await openDatabase(config);
try {
  await database.migrate();
  if (process.argv.includes('--reset')) {
    await resetData(database.db);
    console.log('All data removed.');
  }
  console.log(
    (await seedDemo(database.db))
      ? 'Demo data seeded.'
      : 'Data already present: nothing seeded (use --reset to rebuild).',
  );
  if (process.argv.includes('--large')) {
    const started = Date.now();
    await seedLargeCatalog(database.db, { count: 100_000, siteId: 1000, log: console.log });
    console.log(`Large catalogue seeded in ${Math.round((Date.now() - started) / 1000)} s.`);
  }
  const scale = process.argv.find((a) => a === '--scale' || a.startsWith('--scale='));
  if (scale) {
    const factor = scale.includes('=') ? Number(scale.split('=')[1]) : 1;
    if (!(factor > 0 && factor <= 1)) throw new Error('--scale=<factor>: a number above 0, at most 1');
    if (!config.databaseUrl && factor > 0.01)
      throw new Error('--scale needs PostgreSQL (DATABASE_URL); PGlite takes at most --scale=0.01');
    const counts = scaleCounts(factor);
    console.log(`Scaling up to ${JSON.stringify(counts)}`);
    const started = Date.now();
    const bars = new Map<string, ReturnType<typeof progressBar>>();
    await seedScale(database.db, counts, (step, done, total) => {
      if (!bars.has(step)) bars.set(step, progressBar(step));
      bars.get(step)?.update(done, total);
    });
    console.log(`Scaled up in ${Math.round((Date.now() - started) / 1000)} s.`);
  }
} finally {
  await database.close();
}
