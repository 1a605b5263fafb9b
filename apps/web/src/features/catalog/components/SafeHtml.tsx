import { useMemo } from 'react';
import { sanitizeHtml } from '../lib/sanitize.ts';

/** Operator-written HTML (product detail, notices), sanitised by DOMPurify before it reaches the page. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
