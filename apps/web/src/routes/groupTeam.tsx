import { Result } from 'antd';
import { useSearchParams } from 'react-router';
import { GroupTeam } from '../features/activity/index.ts';

/** groupTeam (issue 14; query teamId): a team with its members, countdown and share link. */
export function Component() {
  const [params] = useSearchParams();
  const teamId = Number(params.get('teamId'));
  if (!Number.isSafeInteger(teamId) || teamId <= 0)
    return <Result className="page-card" status="404" title="团不存在" />;
  return <GroupTeam key={teamId} teamId={teamId} />;
}
