import { seedMember } from '../../modules/identity/members';
import { postEntry } from '../../modules/points/points.service';
import type { Db } from '../client';

/**
 * One demo member per demo site, in the site's login mode (README "Demo members"). The SMS
 * simulator shows codes at GET /simulator/sms/outbox?phone=... and in the server log.
 */
export interface DemoMember {
  siteId: number;
  phone: string | null;
  username: string | null;
  password: string;
  /** Opening balance in minor units, issued through the ledger like any other credit. */
  points: number;
}

export const DEMO_MEMBERS: DemoMember[] = [
  // 719 logs in by SMS code; the password also allows password login.
  { siteId: 719, phone: '13800000719', username: null, password: 'Demo0719', points: 1_000_000 },
  { siteId: 10110, phone: '13800010110', username: 'demo10110', password: 'Demo10110', points: 300_000 },
  { siteId: 1000, phone: '13800001000', username: null, password: 'Demo1000', points: 50_000 },
];

/** Creates a demo member with its opening balance, issued through the ledger like any credit. */
export async function seedDemoMember(db: Db, { points, ...demo }: DemoMember) {
  const member = await seedMember(db, demo);
  await postEntry(db, {
    siteId: demo.siteId,
    memberId: member.id,
    amount: points,
    type: 'issue',
    note: '开户赠送积分',
  });
  return member;
}
