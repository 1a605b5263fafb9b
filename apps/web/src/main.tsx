import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/queryClient.ts';
import { configureRequest } from './api/request.ts';
import { BASENAME, createAppRouter } from './routes/router.tsx';
// antd's component styles (made at build time: build/antd-styles.ts) before the storefront's own,
// as antd placed them when it wrote them itself: a rule of ours that ties with antd's wins (the
// darker tag colours of layout.css, for contrast). In the first stylesheet, they are also there
// before antd first renders, which is when it reads which styles the sheet holds.
import 'virtual:antd-styles.css';
import './layout/layout.css';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// The request layer navigates through the router (401/416 → login) and reads its location.
configureRequest({
  navigate: (to) => void router.navigate(to, { replace: true }),
  // The router's own location carries the basename; the request layer works with app paths.
  currentPath: () => {
    const { pathname, search } = router.state.location;
    const path = pathname.startsWith(BASENAME) ? pathname.slice(BASENAME.length) || '/' : pathname;
    return `${path}${search}`;
  },
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
