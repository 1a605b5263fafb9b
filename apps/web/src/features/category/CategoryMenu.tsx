import { RightOutlined } from '@ant-design/icons';
import { Empty, Spin } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { type CategoryLabel, useCategoryGroups, useLabels } from './api.ts';
import { searchByCategory } from './CategoryLinks.tsx';

function CategoryGroups({ lableId }: { lableId: number }) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const groups = useCategoryGroups(siteId, lableId);
  if (groups.isPending) return <Spin className="category-menu__loading" />;
  if (groups.isError || groups.data.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无分类" />;
  }
  return (
    <dl className="category-menu__groups">
      {groups.data.map((group) => (
        <div key={group.levelId} className="category-menu__group">
          <dt>
            {group.levelName}
            <RightOutlined />
          </dt>
          <dd>
            {group.categories.map((category) => (
              <Link key={category.id} to={link(searchByCategory(category.id, category.catName))}>
                {category.catName}
              </Link>
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * "全部分类": labels on the left, the hovered label's grouped categories on the right
 * (spec section 2, "Category menu"). Without labels it says so instead of showing anything made up.
 */
export function CategoryMenu({ className }: { className?: string }) {
  const { siteId } = useSite();
  const labels = useLabels(siteId);
  const [active, setActive] = useState<CategoryLabel | null>(null);

  const list = labels.data ?? [];
  return (
    <nav
      className={`category-menu ${className ?? ''}`}
      aria-label="全部分类"
      onMouseLeave={() => setActive(null)}
    >
      <ul className="category-menu__labels">
        {labels.isPending && siteId ? (
          <li className="category-menu__state">
            <Spin size="small" />
          </li>
        ) : list.length === 0 ? (
          <li className="category-menu__state">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无分类" />
          </li>
        ) : (
          list.map((label) => (
            <li
              key={label.id}
              className={active?.id === label.id ? 'is-active' : undefined}
              onMouseEnter={() => setActive(label)}
            >
              <span>{label.lableName}</span>
              <RightOutlined />
            </li>
          ))
        )}
      </ul>
      {active && (
        <div className="category-menu__panel">
          <CategoryGroups lableId={active.id} />
        </div>
      )}
    </nav>
  );
}
