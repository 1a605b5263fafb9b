// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SERVICE_GROUPS } from './content.ts';

const ctx = { siteName: '汇通银行信用卡积分商城', hotline: '400-819-0719', hours: '周一至周日 8:00-18:00' };
const allText = SERVICE_GROUPS.flatMap((group) =>
  group.entries.flatMap((entry) =>
    entry.sections(ctx).flatMap((s) => [s.heading ?? '', ...(s.paragraphs ?? []), ...(s.steps ?? [])]),
  ),
).join('\n');

describe('service information (issue 17, item 6)', () => {
  // The storefront has no after-sales entry yet: the text must not send shoppers to a button,
  // a list or a form that does not exist.
  it.each(['申请售后', '售后申请', '售后单', '我的订单 - 售后'])('never points at %s', (entry) => {
    expect(allText).not.toContain(entry);
  });

  it('sends refund requests to customer service', () => {
    const steps = SERVICE_GROUPS[0]!.entries.find((e) => e.key === 'refundSteps')!.sections(ctx)[0]!.steps!;
    expect(steps.join('')).toContain('联系商城客服');
  });
});
