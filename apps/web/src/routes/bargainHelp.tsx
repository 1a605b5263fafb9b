import { Result } from 'antd';
import { useSearchParams } from 'react-router';
import { BargainDetail } from '../features/activity/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** bargainHelp (issue 14; query id): the shared link of a bargain, where another member helps. */
export function Component() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  if (!Number.isSafeInteger(id) || id <= 0) return <Result status="404" title="砍价链接无效" />;
  return (
    <RequireMember title="好友砍价">
      <BargainDetail key={id} id={id} />
    </RequireMember>
  );
}
