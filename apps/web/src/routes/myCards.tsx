import { BuyPacks, MyCards } from '../features/packs/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myCards (issue 13): 我的卡包, gift cards with balances and ledgers; buying packs with points. */
export function Component() {
  return (
    <RequireMember title="我的卡包">
      <MyCards />
      <BuyPacks />
    </RequireMember>
  );
}
