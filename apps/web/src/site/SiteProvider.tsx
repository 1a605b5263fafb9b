import type { AdvancedConfig, MallSite } from '@sitemall/contract';
import { formatMoney } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { hotlineQuery, pcTemplatesQuery, siteConfigQuery } from './api.ts';
import { formatHotline } from './phone.ts';
import { getSiteId, LOCAL_KEYS, setItem } from './storage.ts';
import { parseTemplates, type SiteTemplates } from './templates.ts';

export type SiteStatus = 'missing' | 'loading' | 'error' | 'ready';

export interface SiteContextValue {
  siteId: string | null;
  status: SiteStatus;
  error: Error | null;
  site: MallSite | null;
  advancedConfig: AdvancedConfig | null;
  templates: SiteTemplates;
  /** The hotline as shown (decrypted when the site stores it encrypted, grouped); '' while unknown. */
  hotline: string;
  formatMoney: (fen: number) => string;
}

const SiteContext = createContext<SiteContextValue | null>(null);

export function useSite(): SiteContextValue {
  const value = useContext(SiteContext);
  if (!value) throw new Error('useSite must be used inside <SiteProvider>');
  return value;
}

/** The site context, or null outside a <SiteProvider> (an error screen above the site). */
export const useOptionalSite = (): SiteContextValue | null => useContext(SiteContext);

/** The site of the address, else the stored one (spec section 2: routes carry siteId). */
export function useSiteId(): string | null {
  const [params] = useSearchParams();
  return params.get('siteId') || getSiteId();
}

/**
 * Loads the site configuration of the current siteId and gives the app the site, its
 * templates, its hotline and money formatting (antd's theme from it: SiteTheme.tsx).
 */
export function SiteProvider({ children }: { children: ReactNode }) {
  const siteId = useSiteId();
  const config = useQuery({ ...siteConfigQuery(siteId ?? ''), enabled: !!siteId });
  const pcInfo = useQuery({ ...pcTemplatesQuery(siteId ?? ''), enabled: !!siteId && config.isSuccess });
  const site = config.data?.mallSite ?? null;
  const hotline = useQuery({ ...hotlineQuery(siteId ?? '', site?.hotline ?? ''), enabled: !!site?.hotline });

  useEffect(() => {
    // Spec section 8: a refused configuration is not applied (the title: layout/DocumentTitle).
    if (!site || !siteId) return;
    const logo = config.data?.advancedConfig.logo;
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon && logo) icon.href = logo;
    setItem(LOCAL_KEYS.loginWay, site.loginWay, { siteId });
  }, [site, siteId, config.data]);

  const value = useMemo<SiteContextValue>(() => {
    const status: SiteStatus = !siteId
      ? 'missing'
      : config.isPending
        ? 'loading'
        : config.isError
          ? 'error'
          : 'ready';
    const cashUnit = site?.cashUnit ?? '';
    return {
      siteId,
      status,
      error: config.error,
      site,
      advancedConfig: config.data?.advancedConfig ?? null,
      templates: parseTemplates(pcInfo.data ?? site?.homePageModes),
      hotline: formatHotline(hotline.data ?? ''),
      formatMoney: (fen) => formatMoney(fen, cashUnit),
    };
  }, [siteId, site, config.isPending, config.isError, config.error, config.data, pcInfo.data, hotline.data]);

  return <SiteContext.Provider value={value}>{children}</SiteContext.Provider>;
}
