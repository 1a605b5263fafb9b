import { type ComponentProps, lazy, Suspense } from 'react';

const LoadedSafeHtml = lazy(() => import('./SafeHtml.tsx').then((m) => ({ default: m.SafeHtml })));

/**
 * SafeHtml loaded when first drawn: DOMPurify stays out of the pages that may show
 * operator-written HTML (the footer note, the PC notice) until one does.
 */
export function LazySafeHtml(props: ComponentProps<typeof LoadedSafeHtml>) {
  return (
    <Suspense fallback={null}>
      <LoadedSafeHtml {...props} />
    </Suspense>
  );
}
