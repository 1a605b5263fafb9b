import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useMemo } from 'react';
import { siteTheme } from './antd-theme.ts';
import { accessiblePrimary } from './color.ts';
import { useOptionalSite } from './SiteProvider.tsx';

const DEFAULT_PRIMARY = '#e1251b';

/**
 * antd themed with the site's primary colour, in Chinese, with its App (message, modal,
 * notification). Outside a site (an error above it) the default colour. Loaded with the first
 * page (layout/Frame.tsx), not in the entry: antd stays out of the first script (its component
 * styles are in the first stylesheet: main.tsx).
 */
export function SiteTheme({ children }: { children: ReactNode }) {
  const site = useOptionalSite();
  // The brand colour, only as dark as text on it and it as text must be to read (WCAG AA).
  const primary = accessiblePrimary(site?.advancedConfig?.primaryColor || DEFAULT_PRIMARY);
  const theme = useMemo(() => siteTheme(primary), [primary]);
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
