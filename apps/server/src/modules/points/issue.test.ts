import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../lib/csv';
import { type TestApp, testApp } from '../../test/harness';
import { seedMember } from '../identity/members';
import { issueFromCsv, issuePoints, yuanToFen } from './issue';
import { getBalance } from './points.service';

let t: TestApp;
let alice: number;
let bob: number;
const balance = (memberId: number, siteId = 719) => getBalance(t, { siteId, memberId });

beforeAll(async () => {
  t = await testApp();
  alice = (await seedMember(t.db, { siteId: 719, phone: '13700000001' })).id;
  bob = (await seedMember(t.db, { siteId: 719, username: 'bob_issue' })).id;
  await seedMember(t.db, { siteId: 10110, phone: '13700000002' });
});
afterAll(() => t.close());

describe('yuanToFen', () => {
  it('takes yuan with at most two decimals, above 0', () => {
    expect(yuanToFen('100')).toBe(10_000);
    expect(yuanToFen('100.5')).toBe(10_050);
    expect(yuanToFen(' 0.01 ')).toBe(1);
    expect(yuanToFen('1000000.00')).toBe(100_000_000);
    for (const bad of ['', '0', '0.00', '-1', '1.234', '1e3', '1,000', 'abc', '1000000.01', '.5'])
      expect(yuanToFen(bad), bad).toBeUndefined();
  });
});

describe('parseCsv', () => {
  it('reads quotes, commas inside quotes, CRLF and a BOM', () => {
    expect(parseCsv('\uFEFFa,"b,c","d ""e"""\r\n1,2,3\n')).toEqual([
      ['a', 'b,c', 'd "e"'],
      ['1', '2', '3'],
    ]);
  });
});

describe('issuePoints', () => {
  it('credits a member by phone or username; a request key applies once', async () => {
    const one = await issuePoints(t.db, {
      siteId: 719,
      account: '13700000001',
      amount: 10_000,
      requestKey: 'issue:k1',
    });
    expect(one).toMatchObject({
      memberId: alice,
      isNew: true,
      entry: { type: 'issue', amount: 10_000, note: '积分发放' },
    });
    const again = await issuePoints(t.db, {
      siteId: 719,
      account: '13700000001',
      amount: 10_000,
      requestKey: 'issue:k1',
    });
    expect(again.isNew).toBe(false);
    expect(again.entry.id).toBe(one.entry.id);
    expect(await balance(alice)).toBe(10_000);
    await expect(
      issuePoints(t.db, { siteId: 719, account: '13700000001', amount: 5_000, requestKey: 'issue:k1' }),
    ).rejects.toThrow('请求号已用于另一笔发放');
    await issuePoints(t.db, { siteId: 719, account: 'bob_issue', amount: 1, note: '奖励' });
    expect(await balance(bob)).toBe(1);
  });

  it('refuses unknown members, other sites’ members and bad amounts', async () => {
    await expect(issuePoints(t.db, { siteId: 719, account: '13700000002', amount: 1 })).rejects.toThrow(
      '没有会员',
    );
    await expect(issuePoints(t.db, { siteId: 719, account: 'nobody', amount: 1 })).rejects.toThrow(
      '没有会员',
    );
    await expect(issuePoints(t.db, { siteId: 719, account: '13700000001', amount: 0 })).rejects.toThrow(
      '发放金额',
    );
    await expect(issuePoints(t.db, { siteId: 719, account: '13700000001', amount: 1.5 })).rejects.toThrow(
      '发放金额',
    );
  });
});

describe('issueFromCsv', () => {
  it('issues valid rows, reports bad ones, and issues nothing twice on a re-run', async () => {
    const text = [
      'phone,amount,note,requestId',
      '13700000001,12.50,三月福利',
      'bob_issue,3,,req-42',
      '13700000001,12.50,三月福利',
      '13700000001,1.234,too precise',
      '13900000000,5,unknown member',
      ',5,no account',
      '13700000001,abc,bad amount',
      '',
    ].join('\r\n');
    const progress: number[] = [];
    const before = { alice: await balance(alice), bob: await balance(bob) };
    const first = await issueFromCsv(t.db, {
      siteId: 719,
      fileName: 'march.csv',
      text,
      onProgress: (done) => progress.push(done),
    });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(first.map((r) => [r.line, r.result])).toEqual([
      [2, 'ok'],
      [3, 'ok'],
      [4, 'ok'],
      [5, 'error'],
      [6, 'error'],
      [7, 'error'],
      [8, 'error'],
    ]);
    expect(first[3]!.detail).toContain('金额不正确');
    expect(first[4]!.detail).toContain('没有会员');
    // Two identical lines are two rows (line numbers differ): both apply.
    expect(await balance(alice)).toBe(before.alice + 2_500);
    expect(await balance(bob)).toBe(before.bob + 300);

    const second = await issueFromCsv(t.db, { siteId: 719, fileName: 'march.csv', text });
    expect(second.filter((r) => r.result === 'ok').map((r) => r.detail)).toEqual(
      Array(3).fill('此前已发放，未重复发放'),
    );
    expect(await balance(alice)).toBe(before.alice + 2_500);
    expect(await balance(bob)).toBe(before.bob + 300);
    const keys = await t.db.execute(
      sql`select count(*)::int as n from points_entry where member_id = ${bob} and request_key = 'issue:req-42'`,
    );
    expect(Number((keys as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(1);
  });
});
