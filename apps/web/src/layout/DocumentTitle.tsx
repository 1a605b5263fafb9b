import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { isRouteMeta } from '../routes/meta.ts';
import { useSite } from '../site/SiteProvider.tsx';

/** `页面名 - 站点名`, as a shopper sees it in the tab and in bookmarks. */
export const pageTitle = (page: string | undefined, siteName: string): string =>
  page ? `${page} - ${siteName}` : siteName;

/**
 * Names the browser tab after the page and the site. Only a configuration the site answered
 * names it (spec section 8: a refused configuration does not change the title).
 */
export function DocumentTitle() {
  const { site } = useSite();
  const matches = useMatches();
  const page = matches.map((match) => match.handle).findLast(isRouteMeta)?.title;
  const siteName = site?.siteName;
  useEffect(() => {
    if (siteName) document.title = pageTitle(page, siteName);
  }, [page, siteName]);
  return null;
}
