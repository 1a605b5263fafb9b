/** The hot paths each issue asks to measure; every one is compared with /healthz. */
export interface Scenario {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  /** Runs once before the scenario (log in, create data ...). */
  prepare?: (base: string) => Promise<void>;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'POST getSiteConfig (719)',
    path: '/front-mall-api/mall/mallsite/getSiteConfig',
    body: { siteId: 719 },
  },
  { name: 'POST pcInfo (10110)', path: '/front-mall-api/mall/mallsite/pcInfo', body: { id: 10110 } },
];
