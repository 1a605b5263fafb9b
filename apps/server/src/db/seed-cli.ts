import { readConfig } from '../config';
import { openDatabase } from './client';
import { seedLargeCatalog } from './demo/catalog';
import { resetData, seedDemo } from './seed';

/**
 * npm run seed [-- --reset] [-- --large]: seed the demo data; --reset empties the database first;
 * --large adds a 100,000-product catalogue sold on site 1000 (for benchmarks).
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
} finally {
  await database.close();
}
