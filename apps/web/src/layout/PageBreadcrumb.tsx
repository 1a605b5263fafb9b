import { Link, useMatches, useSearchParams } from 'react-router';
import { isRouteMeta } from '../routes/meta.ts';
import { useSiteLink } from '../site/links.ts';
import { Breadcrumb } from '../ui/Breadcrumb.tsx';

/** "首页 > breadTxt" on the routes flagged for it (spec section 2, "Global layout"). */
export function PageBreadcrumb() {
  const matches = useMatches();
  const [params] = useSearchParams();
  const link = useSiteLink();
  const meta = matches.map((match) => match.handle).findLast(isRouteMeta);
  if (!meta?.breadcrumb || meta.breadcrumb === 'own') return null;
  const text = params.get('breadTxt') || meta.title;
  return (
    <Breadcrumb>
      <Link to={link('/home')}>首页</Link>
      {text}
    </Breadcrumb>
  );
}
