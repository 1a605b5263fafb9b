import { ADMIN_AREAS, type Permission } from '@sitemall/contract';

/**
 * Demo operators of the console (README "Demo operators"): three roles serve every site, the
 * site scope sits on each assignment. The matrix test reads its expectations from here.
 */
const all = (level: 'view' | 'manage') => ADMIN_AREAS.map((a) => `${a}:${level}` as Permission);

export const DEMO_ROLES: { name: string; permissions: Permission[] }[] = [
  { name: '平台管理员', permissions: all('manage') },
  {
    name: '站点运营',
    permissions: [
      'sites:manage',
      'catalogue:manage',
      'stock:manage',
      'orders:manage',
      'aftersales:manage',
      'members:manage',
      'points:manage',
      'promotions:manage',
      'audit:view',
    ],
  },
  {
    name: '财务复核',
    permissions: [
      'finance:manage',
      'points:view',
      'orders:view',
      'members:view',
      'audit:view',
      // Refund proposals are reviewed on the after-sales case page, card batches on the
      // promotions page: a reviewer sees what they approve.
      'aftersales:view',
      'promotions:view',
    ],
  },
  { name: '客服', permissions: ['orders:view', 'aftersales:manage', 'members:view', 'points:view'] },
];

export interface DemoOperator {
  username: string;
  name: string;
  password: string;
  roles: { role: string; siteIds: number[] | null }[];
}

export const DEMO_OPERATORS: DemoOperator[] = [
  {
    username: 'admin',
    name: '平台管理员',
    password: 'Admin#2026',
    roles: [{ role: '平台管理员', siteIds: null }],
  },
  {
    username: 'op719',
    name: '汇通运营',
    password: 'Op719#2026',
    roles: [{ role: '站点运营', siteIds: [719] }],
  },
  {
    username: 'finance',
    name: '财务复核',
    password: 'Finance#2026',
    roles: [{ role: '财务复核', siteIds: null }],
  },
  {
    username: 'cs10110',
    name: '福利客服',
    password: 'Cs10110#2026',
    roles: [{ role: '客服', siteIds: [10110] }],
  },
];

/** Points issues and console order refunds above these amounts (fen) need a second approver. */
export const DEMO_SITE_POLICIES = [
  { siteId: 719, pointsIssueThreshold: 100_000, refundThreshold: 100_000 },
  { siteId: 10110, pointsIssueThreshold: 500_000, refundThreshold: 500_000 },
  { siteId: 1000, pointsIssueThreshold: 50_000, refundThreshold: 100_000 },
];
