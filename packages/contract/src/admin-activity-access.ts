/**
 * What every endpoint of the console's activity screens shares: its OpenAPI tag and the
 * permission it needs (promotions:view to read, promotions:manage to write, JSON bodies).
 */
export const view = { tag: 'admin-activity', operator: 'promotions:view', method: 'GET' } as const;
export const manage = {
  tag: 'admin-activity',
  operator: 'promotions:manage',
  method: 'POST',
  encoding: 'json',
} as const;
