import { TopupForm } from '../features/movie/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** topup (issue 15): direct phone top-up. */
export function Component() {
  return (
    <RequireMember title="话费充值">
      <TopupForm />
    </RequireMember>
  );
}
