import { MyGroupBuys } from '../features/activity/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myGroupBuy (issue 14): 我的拼团. */
export function Component() {
  return (
    <RequireMember title="我的拼团">
      <MyGroupBuys />
    </RequireMember>
  );
}
