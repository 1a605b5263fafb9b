import { useSearchParams } from 'react-router';
import { Turntable } from '../features/activity/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** lottery (issue 14; query code, default cj001): the turntable of a marketing activity. */
export function Component() {
  const [params] = useSearchParams();
  const code = params.get('code') ?? undefined;
  return (
    <RequireMember title="抽奖活动">
      <Turntable key={code} code={code && /^[A-Za-z0-9_-]{1,32}$/.test(code) ? code : undefined} />
    </RequireMember>
  );
}
