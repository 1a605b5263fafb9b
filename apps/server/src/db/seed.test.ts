import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../test/harness';
import { resetData, seedDemo } from './seed';

const counts = async (t: TestApp) => {
  const result = await t.db.execute(
    sql`select (select count(*) from mall_site)::int as sites, (select count(*) from advert)::int as adverts, (select count(*) from site_template)::int as templates`,
  );
  return (result as unknown as { rows: unknown[] }).rows[0];
};

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('creates the three demo sites once; seeding again changes nothing', async () => {
    const before = await counts(t);
    expect(before).toEqual({ sites: 3, adverts: 21, templates: 6 });
    expect(await seedDemo(t.db)).toBe(false);
    expect(await counts(t)).toEqual(before);
  });

  it('rebuilds from scratch after a reset', async () => {
    await resetData(t.db);
    expect(await counts(t)).toEqual({ sites: 0, adverts: 0, templates: 0 });
    expect(await seedDemo(t.db)).toBe(true);
    expect(await counts(t)).toEqual({ sites: 3, adverts: 21, templates: 6 });
  });
});
