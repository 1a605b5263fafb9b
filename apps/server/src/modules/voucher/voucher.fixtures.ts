import type { Db } from '../../db/client';
import { voucherTemplate } from './voucher.tables';

const DAY = 86_400_000;

/** A template for a test: 10 yuan off everything on 719, self-claim, valid for a year. */
export async function makeTemplate(
  db: Db,
  overrides: Partial<typeof voucherTemplate.$inferInsert> = {},
): Promise<number> {
  const now = Date.now();
  const [row] = await db
    .insert(voucherTemplate)
    .values({
      siteId: 719,
      name: '测试券',
      kind: 'amount',
      value: 1000,
      scope: { type: 'all', ids: [] },
      claimMode: 'self',
      validMode: 'fixed',
      validFrom: new Date(now - DAY),
      validTo: new Date(now + 365 * DAY),
      ...overrides,
    })
    .returning({ id: voucherTemplate.id });
  if (!row) throw new Error('template not created');
  return row.id;
}
