import { MenuOutlined } from '@ant-design/icons';
import { Link, useLocation } from 'react-router';
import { CategoryMenu } from '../features/category/CategoryMenu.tsx';
import { useSiteLink } from '../site/links.ts';
import { useSite } from '../site/SiteProvider.tsx';
import { menuAdTarget } from '../site/templates.ts';

/**
 * The coloured category bar: "全部分类" (opening the category menu; on the home page the menu
 * stands open beside the banner instead) and the advert links of the menu template.
 */
export function NavBar() {
  const { templates } = useSite();
  const link = useSiteLink();
  const { pathname } = useLocation();
  const onHome = pathname === '/home';

  return (
    <nav className="navbar">
      <div className="container navbar__inner">
        <div className={`navbar__all ${onHome ? '' : 'navbar__all--hover'}`}>
          <span className="navbar__all-title">
            <MenuOutlined /> 全部分类
          </span>
          {!onHome && <CategoryMenu className="category-menu--dropdown" />}
        </div>
        <ul className="navbar__ads">
          <li>
            <Link to={link('/home')}>首页</Link>
          </li>
          {templates.menu.map((ad) => {
            const target = menuAdTarget(ad);
            if (!target) return null;
            return (
              <li key={ad.id}>
                {'internal' in target ? (
                  <Link to={link(target.internal)} title={ad.adName}>
                    {ad.title}
                  </Link>
                ) : (
                  <a href={target.external} target="_blank" rel="noopener noreferrer" title={ad.adName}>
                    {ad.title}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
