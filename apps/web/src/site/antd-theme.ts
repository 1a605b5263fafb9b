import type { ThemeConfig } from 'antd';

/**
 * The storefront's antd theme without the site's colour. CSS variables with a fixed key: the
 * components' styles then name `var(--ant-…)` instead of a site's values, so one stylesheet made
 * at build time serves every site (build/antd-styles.ts) and a site's colours are only its
 * variables. The build renders with this same object: the styles' cache paths it writes must
 * be the ones the browser looks up.
 */
export const STOREFRONT_THEME = {
  // The key is also a class on antd's elements: one no stylesheet of ours uses.
  cssVar: { key: 'site-antd-vars' },
  token: {
    borderRadius: 4,
    // antd's tertiary grey (45% black, 3.4:1) is too faint for labels, hints and empty
    // states; 60% black reads at 5.7:1 (WCAG AA).
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    // Field messages in antd's #ff4d4f read at 3.3:1; red-7 reads at 5.6:1.
    colorError: '#cf1322',
  },
} as const satisfies ThemeConfig;

/** The theme of a site whose (readable) primary colour is `primary`. */
export const siteTheme = (primary: string): ThemeConfig => ({
  ...STOREFRONT_THEME,
  token: { ...STOREFRONT_THEME.token, colorPrimary: primary, colorInfo: primary, colorLink: primary },
});
