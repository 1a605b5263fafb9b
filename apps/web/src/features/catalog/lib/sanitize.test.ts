import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

describe('sanitizeHtml', () => {
  it('keeps the markup of a product detail', () => {
    expect(
      sanitizeHtml('<h3>商品介绍</h3><p><b>品牌</b> 绿联</p><img src="/media/product/1.svg" alt="">'),
    ).toBe('<h3>商品介绍</h3><p><b>品牌</b> 绿联</p><img src="/media/product/1.svg" alt="">');
  });
  it('removes scripts, handlers and javascript: links', () => {
    const clean = sanitizeHtml(
      '<p onclick="steal()">hi</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><img src=x onerror="alert(1)">',
    );
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(clean).toContain('<p>hi</p>');
  });
  it('drops style and form elements', () => {
    expect(sanitizeHtml('<style>body{display:none}</style><form><input></form>ok')).toBe('ok');
  });
});
