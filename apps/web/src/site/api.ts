import type { ClientKeys, HomePageMode, PcInfo, SiteConfig } from '@sitemall/contract';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../api/request.ts';
import { decryptHotline, isEncryptedHotline } from './hotline.ts';

/** A site configuration the server refused (spec section 8: code 500 means "not applied"). */
export class SiteConfigError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'SiteConfigError';
  }
}

export async function fetchSiteConfig(siteId: string): Promise<SiteConfig> {
  const answer = await request<SiteConfig>('/mall/mallsite/getSiteConfig', { siteId });
  if (answer.code !== 200 || !answer.data)
    throw new SiteConfigError(answer.msg || '站点配置获取失败', answer.code);
  return answer.data;
}

export const siteConfigQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site', siteId, 'config'],
    queryFn: () => fetchSiteConfig(siteId),
    staleTime: 5 * 60_000,
    retry: (count, error) => !(error instanceof SiteConfigError) && count < 2,
  });

/** The PC home templates; null when the server has none for the site. */
export async function fetchPcTemplates(siteId: string): Promise<HomePageMode[] | null> {
  const answer = await request<PcInfo>('/mall/mallsite/pcInfo', { id: siteId });
  if (answer.code !== 200 || !answer.data) return null;
  return answer.data.mallSite.homePageModes;
}

export const pcTemplatesQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site', siteId, 'pcInfo'],
    queryFn: () => fetchPcTemplates(siteId),
    staleTime: 5 * 60_000,
  });

async function fetchHotlineKey(): Promise<string> {
  const answer = await request<ClientKeys>('/app/client/clientKeys', {}, { method: 'GET' });
  if (answer.code !== 200 || !answer.data) throw new Error(answer.msg || 'Error');
  return answer.data.hotlineKey;
}

/** The hotline as shown: plain values as they are, encrypted ones decrypted with the client key. */
export async function resolveHotline(hotline: string): Promise<string> {
  if (!isEncryptedHotline(hotline)) return hotline;
  return decryptHotline(hotline, await fetchHotlineKey());
}

export const hotlineQuery = (siteId: string, hotline: string) =>
  queryOptions({
    queryKey: ['site', siteId, 'hotline', hotline],
    queryFn: () => resolveHotline(hotline),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
