import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import './ui.css';

export interface SectionTab {
  key: string;
  label: string;
  children: ReactNode;
}

/**
 * Tabs between the sections of a page (WAI-ARIA tabs: arrows, Home and End move between them),
 * drawn by CSS alone. antd's Tabs measure every tab in a layout effect to place their ink bar:
 * a forced layout of the whole page in the middle of the product page's first render, about a
 * tenth of its script time (docs/performance.md). Every panel is rendered, the others hidden,
 * so each tab's aria-controls names a panel that is there.
 */
export function SectionTabs({ items, className }: { items: SectionTab[]; className?: string }) {
  const [active, setActive] = useState(items[0]?.key);
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const moveTo = (index: number) => {
    const to = (index + items.length) % items.length;
    const item = items[to];
    if (!item) return;
    setActive(item.key);
    tabs.current[to]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const targets: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: items.length - 1,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(target);
  };
  return (
    <div className={className}>
      <div role="tablist" className="section-tabs__list">
        {items.map((item, index) => (
          <button
            key={item.key}
            ref={(el) => {
              tabs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            aria-controls={`${id}-panel-${item.key}`}
            aria-selected={item.key === active}
            tabIndex={item.key === active ? 0 : -1}
            className="section-tabs__tab"
            onClick={() => setActive(item.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items.map((item) => (
        <div
          key={item.key}
          role="tabpanel"
          id={`${id}-panel-${item.key}`}
          aria-labelledby={`${id}-tab-${item.key}`}
          hidden={item.key !== active}
        >
          {item.children}
        </div>
      ))}
    </div>
  );
}
