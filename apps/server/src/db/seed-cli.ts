import { readConfig } from '../config';
import { openDatabase } from './client';
import { resetData, seedDemo } from './seed';

/** npm run seed [-- --reset]: seed the demo data; --reset empties the database first. */
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
} finally {
  await database.close();
}
