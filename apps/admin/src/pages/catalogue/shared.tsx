import { MAX_SITE_PRICE } from '@sitemall/contract';
import { Select, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useSitesWith } from '../../session';

/**
 * The site a catalogue or stock screen works on: the one chosen in the header when the
 * operator holds the permission there, else the first of their sites with it; a picker lets
 * them switch without leaving the screen.
 */
export function useWorkSite(permission: string) {
  const sites = useSitesWith(permission);
  const [chosen, setChosen] = useState<number>();
  const siteId =
    chosen !== undefined && sites.options.some((o) => o.value === chosen) ? chosen : sites.initial;
  const picker =
    sites.options.length > 1 ? (
      <Select
        key="site"
        aria-label="商品站点"
        style={{ width: 220 }}
        value={siteId}
        options={sites.options}
        onChange={setChosen}
      />
    ) : null;
  return { siteId, picker };
}

/** Highest site price in yuan the forms accept (the server checks the same in fen). */
export const MAX_PRICE_YUAN = MAX_SITE_PRICE / 100;

/** The rule every site price field follows: required, 0.01 to MAX_PRICE_YUAN yuan. */
export const priceRules = [
  { required: true, message: '请填写站点价' },
  {
    validator: (_: unknown, value: number | undefined) =>
      value === undefined || value === null || (value >= 0.01 && value <= MAX_PRICE_YUAN)
        ? Promise.resolve()
        : Promise.reject(new Error(`站点价须在 0.01 至 ${MAX_PRICE_YUAN} 元之间`)),
  },
];

/** A low-stock list's columns (the dashboard's, the stock screen's): red when none is left. */
export const lowStockColumns = <
  Row extends { name: string; specificationValue: string; stock: number },
>(): TableColumnsType<Row> => [
  { title: '商品', dataIndex: 'name' },
  { title: '规格', dataIndex: 'specificationValue' },
  {
    title: '库存',
    dataIndex: 'stock',
    render: (v: number) => <Tag color={v === 0 ? 'red' : 'orange'}>{v}</Tag>,
  },
];
