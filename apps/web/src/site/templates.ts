import {
  type FootTemplate,
  type HeadTemplate,
  type HomePageMode,
  type MenuAd,
  TEMPLATE,
} from '@sitemall/contract';

export interface SiteTemplates {
  head: HeadTemplate | null;
  menu: MenuAd[];
  foot: FootTemplate | null;
}

/** Template values may arrive as JSON text or as parsed JSON. */
function templateValue(modes: readonly HomePageMode[], name: string): unknown {
  const value = modes.find((mode) => mode.templateName === name)?.value;
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object';
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Reads the head, menu and foot templates of homePageModes (spec section 3, "Templates"). */
export function parseTemplates(modes: readonly HomePageMode[] | null | undefined): SiteTemplates {
  const list = modes ?? [];
  const head = templateValue(list, TEMPLATE.head);
  const menu = templateValue(list, TEMPLATE.menu);
  const foot = templateValue(list, TEMPLATE.foot);
  return {
    head: isObject(head) ? { photo: text(head.photo), note: text(head.note) } : null,
    menu: Array.isArray(menu)
      ? menu.filter(isObject).map((ad) => ({
          id: Number(ad.id),
          type: Number(ad.type),
          title: text(ad.title),
          url: text(ad.url),
          adName: text(ad.adName),
        }))
      : [],
    foot: isObject(foot)
      ? {
          list: Array.isArray(foot.list)
            ? foot.list.filter(isObject).map((item) => ({ src: text(item.src), name: text(item.name) }))
            : [],
          photo: text(foot.photo),
          note: text(foot.note),
        }
      : null,
  };
}

/** Where an advert link of the menu template leads: type 1 a special list, type 2 an external URL. */
export function menuAdTarget(ad: MenuAd): { internal: string } | { external: string } | null {
  if (ad.type === 1) {
    const params = new URLSearchParams({ advertId: String(ad.id), breadTxt: ad.title });
    return { internal: `/specialList?${params.toString()}` };
  }
  if (ad.type === 2 && /^https?:\/\//i.test(ad.url)) return { external: ad.url };
  return null;
}
