import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { accessiblePrimary } from './color.ts';
import { useOptionalSite } from './SiteProvider.tsx';

const DEFAULT_PRIMARY = '#e1251b';

/**
 * antd themed with the site's primary colour, in Chinese, with its App (message, modal,
 * notification). Outside a site (an error above it) the default colour. Loaded with the first
 * page (layout/Frame.tsx), not in the entry: antd stays out of the first script.
 */
export function SiteTheme({ children }: { children: ReactNode }) {
  const site = useOptionalSite();
  // The brand colour, only as dark as text on it and it as text must be to read (WCAG AA).
  const primary = accessiblePrimary(site?.advancedConfig?.primaryColor || DEFAULT_PRIMARY);
  return (
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
  );
}
