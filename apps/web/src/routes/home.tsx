import { useDeferredValue } from 'react';
import { ClientTipsNotice, GuessLike, HomeFloors, useHomeReads } from '../features/catalog/index.ts';
import { CategoryLinks } from '../features/category/CategoryLinks.tsx';
import { CategoryMenu } from '../features/category/CategoryMenu.tsx';
import { useSite } from '../site/SiteProvider.tsx';

/** Home (spec section 2): head banner beside the category menu, product floors, guess-like, PC notice. */
export function Component() {
  const { site, siteId, templates, advancedConfig } = useSite();
  // The page is drawn as a transition: React draws it in slices between which the browser answers
  // input, not in one long task.
  const noticeKnown = useDeferredValue(useHomeReads(siteId ?? '').noticeKnown);
  const head = templates.head;
  // An empty first screen until the notice is known, so that nothing drawn moves when it comes.
  if (!noticeKnown) return <div className="home home--pending" aria-busy="true" />;
  return (
    <div className="home">
      <ClientTipsNotice />
      <div className="home-hero">
        <CategoryMenu className="category-menu--home" withHotCategories />
        <div className="home-hero__banner">
          {head?.photo ? (
            <img src={head.photo} alt={head.note || site?.siteName} title={advancedConfig?.slogan} />
          ) : (
            <div className="home-hero__fallback">
              <strong>{site?.siteName}</strong>
              {advancedConfig?.slogan && <span>{advancedConfig.slogan}</span>}
            </div>
          )}
        </div>
      </div>
      <HomeFloors renderAside={(floor) => <CategoryLinks lableId={floor.lableId} />} />
      <GuessLike />
    </div>
  );
}
