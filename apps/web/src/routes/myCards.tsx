import { MyCards } from '../features/packs/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myCards (issue 13): 我的卡包, gift cards with balances and ledgers. */
export function Component() {
  return (
    <RequireMember title="我的卡包">
      <MyCards />
    </RequireMember>
  );
}
