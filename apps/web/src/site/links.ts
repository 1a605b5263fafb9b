import { useCallback } from 'react';
import { withSiteId } from './routing.ts';
import { useSite } from './SiteProvider.tsx';

/** A function that turns an app path into a link of the current site. */
export function useSiteLink(): (path: string) => string {
  const { siteId } = useSite();
  return useCallback((path: string) => withSiteId(path, siteId), [siteId]);
}
