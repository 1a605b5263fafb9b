// @vitest-environment node
import { formatMoney } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { menuAdTarget, parseTemplates } from './templates.ts';

describe('templates', () => {
  it('reads the three PC templates, parsed or as JSON text', () => {
    const templates = parseTemplates([
      { templateName: 'home-head-template', value: { photo: 'h.png', note: '搜索商品' } },
      {
        templateName: 'home-menu-template',
        value: JSON.stringify([{ id: 3, type: 1, title: '年货节', url: '', adName: 'a' }]),
      },
      {
        templateName: 'home-foot-template',
        value: { list: [{ src: 'i.png', name: '正品保障' }], photo: 'qr.png', note: '<p>x</p>' },
      },
    ]);
    expect(templates.head).toEqual({ photo: 'h.png', note: '搜索商品' });
    expect(templates.menu).toEqual([{ id: 3, type: 1, title: '年货节', url: '', adName: 'a' }]);
    expect(templates.foot?.list).toEqual([{ src: 'i.png', name: '正品保障' }]);
  });

  it('gives empty templates when there are none', () => {
    expect(parseTemplates(undefined)).toEqual({ head: null, menu: [], foot: null });
  });

  it('sends type 1 adverts to the special list and type 2 outside', () => {
    expect(menuAdTarget({ id: 3, type: 1, title: '年货节', url: '', adName: '' })).toEqual({
      internal: '/specialList?advertId=3&breadTxt=%E5%B9%B4%E8%B4%A7%E8%8A%82',
    });
    expect(menuAdTarget({ id: 4, type: 2, title: 't', url: 'https://example.com', adName: '' })).toEqual({
      external: 'https://example.com',
    });
    expect(menuAdTarget({ id: 5, type: 2, title: 't', url: 'javascript:alert(1)', adName: '' })).toBeNull();
  });
});

describe('formatMoney', () => {
  it('shows two decimals and the unit', () => {
    expect(formatMoney(12345, '积分')).toBe('123.45积分');
    expect(formatMoney(5, '元')).toBe('0.05元');
    expect(formatMoney(123456789, '')).toBe('1,234,567.89');
    expect(formatMoney(1000000, '积分')).toBe('10,000.00积分');
    expect(formatMoney(-123456, '元')).toBe('-1,234.56元');
    expect(formatMoney(-150, '元')).toBe('-1.50元');
  });
});
