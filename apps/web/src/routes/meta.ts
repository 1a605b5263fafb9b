/** What a route of the spec's table (section 2) tells the layout. */
export interface RouteMeta {
  /** The page part name (also names it in a load time-out). */
  part: string;
  /** The page's own name: breadcrumb fallback and page heading. */
  title: string;
  /** Shows "首页 > breadTxt" above the page. */
  breadcrumb?: boolean;
}

export const isRouteMeta = (handle: unknown): handle is RouteMeta =>
  !!handle && typeof handle === 'object' && 'part' in handle;
