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

/** A few categories of one label, as chips. */
function HotCategoriesOf({ lableId, limit }: { lableId: number; limit: number }) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const groups = useCategoryGroups(siteId, lableId);
  const categories = (groups.data ?? []).flatMap((group) => group.categories).slice(0, limit);
  return categories.map((category) => (
    <Link key={category.id} to={link(searchByCategory(category.id, category.catName))}>
      {category.catName}
    </Link>
  ));
}

/** Labels at most this many leave room under them for the hot categories (home column). */
const HOT_CATEGORIES_UP_TO = 6;

/**
 * Under a short label list the home column shows hot categories, as JD fills its own: a column
 * with a blank third looks unfinished, and these are one click from their products.
 */
function HotCategories({ labels }: { labels: readonly CategoryLabel[] }) {
  const perLabel = labels.length <= 3 ? 4 : 2;
  return (
    <section className="hot-categories" aria-label="热门分类" data-testid="hot-categories">
      <h2 className="hot-categories__title">热门分类</h2>
      <div className="hot-categories__list">
        {labels.map((label) => (
          <HotCategoriesOf key={label.id} lableId={label.id} limit={perLabel} />
        ))}
      </div>
    </section>
  );
}

/**
 * "全部分类": labels on the left, the hovered label's grouped categories on the right
 * (spec section 2, "Category menu"). Without labels it says so instead of showing anything made up.
 */
export function CategoryMenu({
  className,
  withHotCategories = false,
}: {
  className?: string;
  withHotCategories?: boolean;
}) {
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
      {withHotCategories && list.length > 0 && list.length <= HOT_CATEGORIES_UP_TO && (
        <HotCategories labels={list} />
      )}
      {active && (
        <div className="category-menu__panel">
          <CategoryGroups lableId={active.id} />
        </div>
      )}
    </nav>
  );
}
