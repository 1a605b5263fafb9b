import { type Bill, pointsApi } from '@sitemall/contract';
import { cleanup, screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../api/request.ts';
import { fakeServer } from '../../test/fakeServer.ts';
import { logInMember } from '../../test/fixtures.ts';
import { renderSitePage } from '../../test/sitePage.tsx';
import { afterChinaToday } from './api.ts';
import { BillDetails } from './BillDetails.tsx';

// The suite runs in the machine's zone (UTC in CI): 16:30 UTC on 1 December is already
// 00:30 on 2 December in China, the mall's clock.
const AT = '2026-12-01T16:30:05.000Z';

const bill: Bill = {
  id: 1,
  amount: -3100,
  balanceAfter: 6900,
  type: 'pay',
  typeName: '积分支付',
  orderNo: 'T1',
  note: '',
  createTime: AT,
};

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('bill details', () => {
  it("shows an entry's time on China's clock, whatever the browser's zone", async () => {
    fakeServer({
      [pointsApi.billList.path]: () => ({ list: [bill], total: 1, pageNum: 1, pageSize: 10 }),
    });
    renderSitePage(<BillDetails />, '/billDetails?siteId=719');
    const row = (await screen.findByText('积分支付', { selector: 'td' })).closest('tr');
    expect(row?.querySelector('td')?.textContent).toBe('2026-12-02 00:30:05');
  });

  it("lets the date filter reach China's today, and no further", () => {
    // 17:00 UTC on 1 December: the browser (UTC) is still on the 1st, China on the 2nd.
    const now = Date.parse('2026-12-01T17:00:00Z');
    expect(afterChinaToday(dayjs('2026-12-01'), now)).toBe(false);
    expect(afterChinaToday(dayjs('2026-12-02'), now)).toBe(false);
    expect(afterChinaToday(dayjs('2026-12-03'), now)).toBe(true);
    // 15:59:59 UTC: China is still on the 1st.
    expect(afterChinaToday(dayjs('2026-12-02'), Date.parse('2026-12-01T15:59:59Z'))).toBe(true);
  });
});
