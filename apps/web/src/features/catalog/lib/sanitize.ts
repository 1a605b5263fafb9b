import DOMPurify from 'dompurify';

/** Operator-written HTML without scripts, event handlers, styles, form controls or unknown protocols. */
export const sanitizeHtml = (html: string): string =>
  DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  });
