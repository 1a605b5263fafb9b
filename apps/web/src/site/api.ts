import { type HomePageMode, type SiteConfig, siteApi } from '@sitemall/contract';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, call } from '../api/client.ts';
import { keys } from '../api/keys.ts';
import { decryptHotline, isEncryptedHotline } from './hotline.ts';

/** A refusal (spec section 8: code 500 means "not applied") rejects with the one `ApiError`. */
export const fetchSiteConfig = (siteId: string): Promise<SiteConfig> =>
  call(siteApi.getSiteConfig, { siteId });

export const siteConfigQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.site.config(siteId),
    queryFn: () => fetchSiteConfig(siteId),
    staleTime: 5 * 60_000,
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });

/** The PC home templates; null when the server has none for the site. */
export async function fetchPcTemplates(siteId: string): Promise<HomePageMode[] | null> {
  try {
    return (await call(siteApi.pcInfo, { id: siteId })).mallSite.homePageModes;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export const pcTemplatesQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.site.pcInfo(siteId),
    queryFn: () => fetchPcTemplates(siteId),
    staleTime: 5 * 60_000,
  });

const fetchHotlineKey = async (): Promise<string> => (await call(siteApi.clientKeys, {})).hotlineKey;

/** The hotline as shown: plain values as they are, encrypted ones decrypted with the client key. */
export async function resolveHotline(hotline: string): Promise<string> {
  if (!isEncryptedHotline(hotline)) return hotline;
  return decryptHotline(hotline, await fetchHotlineKey());
}

export const hotlineQuery = (siteId: string, hotline: string) =>
  queryOptions({
    queryKey: keys.site.hotline(siteId, hotline),
    queryFn: () => resolveHotline(hotline),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
