import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { SiteProvider } from '../site/SiteProvider.tsx';
import { SiteTheme } from '../site/SiteTheme.tsx';
import { renderPage } from './render.tsx';

/** Where the page sent the visitor: any other path renders this, with the address it reached. */
function Elsewhere() {
  const { pathname, search } = useLocation();
  return <p data-testid="elsewhere">{`${pathname}${search}`}</p>;
}

/**
 * A page of the storefront at `path` (with its ?siteId), inside the site's provider and theme as
 * the app has them; navigating away shows [data-testid=elsewhere] with the new address.
 */
export function renderSitePage(ui: ReactElement, path: string) {
  const pathname = path.split('?')[0] ?? '/';
  return renderPage(
    <SiteProvider>
      <SiteTheme>
        <Routes>
          <Route path={pathname} element={ui} />
          <Route path="*" element={<Elsewhere />} />
        </Routes>
      </SiteTheme>
    </SiteProvider>,
    { path },
  );
}
