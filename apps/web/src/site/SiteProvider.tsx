import type { AdvancedConfig, MallSite } from '@sitemall/contract';
import { formatMoney } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { hotlineQuery, pcTemplatesQuery, siteConfigQuery } from './api.ts';
import { accessiblePrimary } from './color.ts';
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

/** The site of the address, else the stored one (spec section 2: routes carry siteId). */
export function useSiteId(): string | null {
  const [params] = useSearchParams();
  return params.get('siteId') || getSiteId();
}

const DEFAULT_PRIMARY = '#e1251b';

/**
 * Loads the site configuration of the current siteId and gives the app the site, its
 * templates, its hotline and money formatting; themes antd with the site's primary colour.
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

  // The brand colour, only as dark as text on it and it as text must be to read (WCAG AA).
  const primary = accessiblePrimary(value.advancedConfig?.primaryColor || DEFAULT_PRIMARY);
  return (
    <SiteContext.Provider value={value}>
      <ConfigProvider
        locale={zhCN}
        theme={{
          token: {
            colorPrimary: primary,
            colorInfo: primary,
            colorLink: primary,
            borderRadius: 4,
            // antd's tertiary grey (45% black, 3.4:1) is too faint for labels, hints and empty
            // states; 60% black reads at 5.7:1 (WCAG AA).
            colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
            colorTextDescription: 'rgba(0, 0, 0, 0.6)',
            // Field messages in antd's #ff4d4f read at 3.3:1; red-7 reads at 5.6:1.
            colorError: '#cf1322',
          },
        }}
      >
        <AntApp>{children}</AntApp>
      </ConfigProvider>
    </SiteContext.Provider>
  );
}
