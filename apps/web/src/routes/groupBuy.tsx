import { useSearchParams } from 'react-router';
import { GroupBuy } from '../features/activity/index.ts';

/** groupBuy (issue 14; query id): the site's group buys, or one with its teams to join. */
export function Component() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return <GroupBuy key={id || 'all'} id={Number.isSafeInteger(id) && id > 0 ? id : undefined} />;
}
