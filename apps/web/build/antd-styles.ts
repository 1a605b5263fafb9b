import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ComponentType } from 'react';
import type { Plugin } from 'vite';
import { STOREFRONT_THEME } from '../src/site/antd-theme.ts';

/**
 * `virtual:antd-styles.css`: the styles of every antd component the storefront imports, made at
 * build time, with the cache-path record antd reads from a stylesheet (`.data-ant-cssinjs-cache-path`):
 * a component whose styles are in it neither generates nor inserts them in the browser. That
 * generation was about a third of the first page's script time (docs/performance.md).
 *
 * The theme is src/site/antd-theme.ts in CSS-variable mode, so the styles are the same for every
 * site (a site's colours are variables antd still writes at run time). A component left out here
 * (a new import, a state not rendered below) is not broken: antd generates its styles as before.
 */
const ID = 'virtual:antd-styles.css';

type Component = ComponentType<Record<string, unknown>>;
/** An element to render: the component, its props, its children. */
type Part = [Component, Record<string, unknown>, (Part | string)[]?];
type Popup = Component & { _InternalPanelDoNotUseOrYouWillBeFired?: Component };
type Antd = Record<string, Popup | undefined>;

/** A popup's static panel: it registers the popup's styles without opening anything. */
function panel(popup: Popup | undefined, props: Record<string, unknown> = {}): Part[] {
  const Panel = popup?._InternalPanelDoNotUseOrYouWillBeFired;
  return Panel ? [[Panel, props]] : [];
}

/** Components whose first render needs props; popups render their static panels instead. */
const RENDER: Record<string, (Comp: Popup) => Part[]> = {
  App: () => [],
  ConfigProvider: () => [],
  Dropdown: (Dropdown) => [
    [Dropdown, { menu: { items: [] } }, ['x']],
    ...panel(Dropdown, { menu: { items: [{ key: 1, label: 'x' }] } }),
  ],
  // Form.Item has a style of its own, and takes its class prefix from the form around it.
  Form: (Form) => [[Form, {}, [[(Form as unknown as { Item: Component }).Item, { label: 'x' }, ['x']]]]],
  // Preset colours (blue, ...) and status colours (success, ...) register styles of their own.
  Tag: (Tag) => [
    [Tag, {}],
    [Tag, { color: 'blue' }],
    [Tag, { color: 'success' }],
  ],
  Menu: (Menu) => [[Menu, { items: [{ key: 1, label: 'x' }] }]],
  QRCode: (QRCode) => [[QRCode, { value: 'https://example.com' }]],
  Modal: (Modal) => panel(Modal),
  Popconfirm: (Popconfirm) => panel(Popconfirm, { title: 'x' }),
  Popover: (Popover) => panel(Popover, { content: 'x' }),
  Tooltip: (Tooltip) => panel(Tooltip, { title: 'x' }),
};
/** Popups rendered both closed and as their static panel. */
const WITH_PANEL = ['Select', 'AutoComplete', 'Cascader', 'DatePicker'];
/** What `App.useApp()` shows: toasts, notifications, confirm dialogs. */
const feedback = (a: Antd): Part[] => [
  ...panel(a.message, { content: 'x', type: 'success' }),
  ...panel(a.notification, { message: 'x' }),
  ...panel(a.Modal, { type: 'confirm', title: 'x' }),
];

const pascal = (module: string) => module.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());

/**
 * The components imported anywhere under `dir`: names from 'antd', and the modules of
 * 'antd/es/<component>' (static or lazy imports; `dropdown` is Dropdown).
 */
function antdImports(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    const source = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, list] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g))
      for (const item of (list ?? '').split(','))
        if (!/^\s*type\s/.test(item)) names.add(item.trim().split(/\s+as\s+/)[0] ?? '');
    for (const [, module] of source.matchAll(/(?:from\s*|import\()'antd\/es\/([\w-]+)/g))
      names.add(pascal(module ?? ''));
  }
  return names;
}

/** Renders the storefront's antd components under its theme on the server and extracts the CSS. */
async function buildStyles(srcDir: string): Promise<string> {
  // Imported when the stylesheet is asked for: the config of every Vite run would load antd.
  const [{ createCache, extractStyle, StyleProvider }, antd, { createElement: h }, { renderToString }] =
    await Promise.all([
      import('@ant-design/cssinjs'),
      import('antd'),
      import('react'),
      import('react-dom/server'),
    ]);
  const a = antd as unknown as Antd;
  const parts = feedback(a);
  for (const name of [...antdImports(srcDir)].sort()) {
    const Comp = a[name];
    // Components only (not `theme`, `message`), and only what this antd exports.
    if (!Comp || !/^[A-Z]/.test(name)) continue;
    parts.push(...(RENDER[name]?.(Comp) ?? [[Comp, {}]]));
    if (WITH_PANEL.includes(name)) parts.push(...panel(Comp));
    // Its parts with styles of their own (Space.Compact, Badge.Ribbon, Input.Search, ...); a
    // form's parts take their class prefix from the form (alone they would write `.{…}` rules).
    if (name !== 'Form')
      for (const [key, Sub] of Object.entries(Comp))
        if (/^[A-Z]/.test(key) && Sub && (typeof Sub === 'function' || typeof Sub === 'object'))
          parts.push([Sub as Component, {}]);
  }
  const { App, ConfigProvider } = antd;
  const cache = createCache();
  // One render per part: what is no component (Empty.PRESENTED_IMAGE_SIMPLE) or cannot render
  // alone (Menu.Item outside a menu) fails by itself, and the others are still extracted.
  type Element = ReturnType<typeof h>;
  const element = ([Comp, props, children = []]: Part): Element =>
    h(Comp, props, ...children.map((child) => (typeof child === 'string' ? child : element(child))));
  for (const part of parts)
    try {
      renderToString(
        h(
          StyleProvider,
          { cache },
          h(ConfigProvider, { theme: STOREFRONT_THEME }, h(App, null, element(part))),
        ),
      );
    } catch {
      // not extracted; antd generates it in the browser as before
    }
  // Only the component styles: the theme's variables differ by site and antd writes them.
  return extractStyle(cache, { plain: true, types: 'style' });
}

export function antdStyles(): Plugin {
  let srcDir = '';
  return {
    name: 'sitemall:antd-styles',
    configResolved(config) {
      srcDir = path.join(config.root, 'src');
    },
    resolveId: (id) => (id === ID ? ID : undefined),
    load: (id) => (id === ID ? buildStyles(srcDir) : undefined),
  };
}
