import { ClientTipsNotice, GuessLike, HomeFloors } from '../features/catalog/index.ts';
import { CategoryLinks } from '../features/category/CategoryLinks.tsx';
import { CategoryMenu } from '../features/category/CategoryMenu.tsx';
import { useSite } from '../site/SiteProvider.tsx';

/** Home (spec section 2): head banner beside the category menu, product floors, guess-like, PC notice. */
export function Component() {
  const { site, templates, advancedConfig } = useSite();
  const head = templates.head;
  return (
    <>
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
    </>
  );
}
