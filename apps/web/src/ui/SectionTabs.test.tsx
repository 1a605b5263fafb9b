import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SectionTabs } from './SectionTabs.tsx';

afterEach(cleanup);

const showTabs = () =>
  render(
    <SectionTabs
      items={[
        { key: 'detail', label: '商品详情', children: <p>图文详情</p> },
        { key: 'service', label: '售后保障', children: <p>七天无理由</p> },
        { key: 'spec', label: '规格参数', children: <p>重量 1kg</p> },
      ]}
    />,
  );

const tab = (name: string) => screen.getByRole('tab', { name });
const shownPanel = () => screen.getByRole('tabpanel');

describe('section tabs', () => {
  it('shows the first panel, and another when its tab is clicked, each panel named by its tab', () => {
    showTabs();
    expect(tab('商品详情').getAttribute('aria-selected')).toBe('true');
    expect(shownPanel().textContent).toBe('图文详情');
    expect(screen.getByRole('tabpanel', { name: '商品详情' })).toBe(shownPanel());

    fireEvent.click(tab('售后保障'));
    expect(tab('售后保障').getAttribute('aria-selected')).toBe('true');
    expect(tab('商品详情').getAttribute('aria-selected')).toBe('false');
    expect(shownPanel().textContent).toBe('七天无理由');
  });

  it('keeps every panel in the page, the others hidden, so each tab controls a panel that is there', () => {
    const { container } = showTabs();
    for (const t of screen.getAllByRole('tab')) {
      const panel = container.querySelector(`[id="${t.getAttribute('aria-controls')}"]`);
      expect(panel?.getAttribute('role')).toBe('tabpanel');
      expect((panel as HTMLElement).hidden).toBe(t.getAttribute('aria-selected') !== 'true');
    }
  });

  it('moves with the arrows (round the ends), Home and End, and only the chosen tab is in the tab order', () => {
    showTabs();
    fireEvent.keyDown(tab('商品详情'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('规格参数'));
    expect(shownPanel().textContent).toBe('重量 1kg');
    fireEvent.keyDown(tab('规格参数'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('商品详情'));
    fireEvent.keyDown(tab('商品详情'), { key: 'End' });
    expect(document.activeElement).toBe(tab('规格参数'));
    fireEvent.keyDown(tab('规格参数'), { key: 'Home' });
    expect(shownPanel().textContent).toBe('图文详情');
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([0, -1, -1]);
  });
});
