import { MyBenefits } from '../features/activity/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myBenefits (issue 14, personal center): benefits to receive and the member's own. */
export function Component() {
  return (
    <RequireMember title="我的权益">
      <MyBenefits />
    </RequireMember>
  );
}
