import { Link, useMatches, useSearchParams } from 'react-router';
import { isRouteMeta } from '../routes/meta.ts';
import { useSiteLink } from '../site/links.ts';

/** "首页 > breadTxt" on the routes flagged for it (spec section 2, "Global layout"). */
export function PageBreadcrumb() {
  const matches = useMatches();
  const [params] = useSearchParams();
  const link = useSiteLink();
  const meta = matches.map((match) => match.handle).findLast(isRouteMeta);
  if (!meta?.breadcrumb || meta.breadcrumb === 'own') return null;
  const text = params.get('breadTxt') || meta.title;
  // Two steps in plain markup (layout.css): antd's Breadcrumb brings its Dropdown and Menu.
  return (
    <nav className="page-breadcrumb" aria-label="面包屑">
      <ol>
        <li>
          <Link to={link('/home')}>首页</Link>
        </li>
        <li className="page-breadcrumb__separator" aria-hidden="true">
          /
        </li>
        <li aria-current="page">{text}</li>
      </ol>
    </nav>
  );
}
