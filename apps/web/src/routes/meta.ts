/** What a route of the spec's table (section 2) tells the layout. */
export interface RouteMeta {
  /** The page part name (also names it in a load time-out). */
  part: string;
  /** The page's own name: breadcrumb fallback and page heading. */
  title: string;
  /**
   * Shows "首页 > breadTxt" above the page; 'own' when the page draws a fuller breadcrumb itself
   * (product detail: 首页 > category path > product), so only one is ever shown.
   */
  breadcrumb?: boolean | 'own';
}

export const isRouteMeta = (handle: unknown): handle is RouteMeta =>
  !!handle && typeof handle === 'object' && 'part' in handle;
