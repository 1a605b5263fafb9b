import { useSearchParams } from 'react-router';
import { BargainDetail, BargainList } from '../features/activity/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** bargain (issue 14): the bargain activities, or with `id` the member's bargain (share, buy). */
export function Component() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return (
    <RequireMember title="砍价活动">
      {Number.isSafeInteger(id) && id > 0 ? <BargainDetail key={id} id={id} /> : <BargainList />}
    </RequireMember>
  );
}
