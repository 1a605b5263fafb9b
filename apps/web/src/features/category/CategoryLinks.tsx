import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { useCategoryGroups } from './api.ts';

export const searchByCategory = (id: number, catName: string) =>
  `/searchList?${new URLSearchParams({ cateId: String(id), breadTxt: catName }).toString()}`;

/** The categories of one label as a flat list of links (home floor sides). */
export function CategoryLinks({ lableId, limit = 12 }: { lableId: number; limit?: number }) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const groups = useCategoryGroups(siteId, lableId);
  const categories = (groups.data ?? []).flatMap((group) => group.categories).slice(0, limit);
  return (
    <ul className="category-links">
      {categories.map((category) => (
        <li key={category.id}>
          <Link to={link(searchByCategory(category.id, category.catName))}>{category.catName}</Link>
        </li>
      ))}
    </ul>
  );
}
