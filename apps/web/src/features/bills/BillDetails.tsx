import { chinaTime, PAGE_SIZE, POINTS_ENTRY_TYPE_LABEL, type PointsEntryType } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Result, Select, Table } from 'antd';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { afterChinaToday, type BillFilter, billListQuery, signedAmount } from './api.ts';
import './bills.css';

const TYPES = Object.entries(POINTS_ENTRY_TYPE_LABEL) as [PointsEntryType, string][];
const isType = (v: string | null): v is PointsEntryType => !!v && v in POINTS_ENTRY_TYPE_LABEL;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** /billDetails: the points ledger, filtered by type and dates, 10 a page; entries link to their order. */
export function BillDetails() {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const [params, setParams] = useSearchParams();
  const typeParam = params.get('type');
  const start = params.get('startDate') ?? '';
  const end = params.get('endDate') ?? '';
  const filter: BillFilter = {
    ...(isType(typeParam) ? { type: typeParam } : {}),
    ...(DAY.test(start) ? { startDate: start } : {}),
    ...(DAY.test(end) ? { endDate: end } : {}),
    pageNum: Math.max(1, Number(params.get('pageNum')) || 1),
  };
  const bills = useQuery({ ...billListQuery(siteId ?? '', filter), enabled: !!siteId });

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('pageNum' in changes)) next.delete('pageNum');
    setParams(next);
  };

  return (
    <section className="page-card bills" data-testid="bill-details">
      <h2 className="page-card__title">账单明细</h2>
      <div className="bills__filters">
        <Select
          allowClear
          aria-label="账单类型"
          placeholder="全部类型"
          value={filter.type}
          onChange={(value?: PointsEntryType) => update({ type: value })}
          options={TYPES.map(([value, label]) => ({ value, label }))}
          style={{ width: 160 }}
          data-testid="bill-type"
        />
        <DatePicker.RangePicker
          value={[
            filter.startDate ? dayjs(filter.startDate) : null,
            filter.endDate ? dayjs(filter.endDate) : null,
          ]}
          onChange={(range) =>
            update({
              startDate: range?.[0]?.format('YYYY-MM-DD'),
              endDate: range?.[1]?.format('YYYY-MM-DD'),
            })
          }
          disabledDate={(day) => afterChinaToday(day)}
          data-testid="bill-range"
        />
      </div>
      {bills.isError ? (
        <Result status="warning" title="账单加载失败" subTitle={bills.error.message} />
      ) : (
        <Table
          rowKey="id"
          loading={bills.isFetching}
          dataSource={bills.data?.list ?? []}
          locale={{ emptyText: <span className="table-empty">暂无账单</span> }}
          pagination={{
            current: bills.data?.pageNum ?? filter.pageNum,
            pageSize: PAGE_SIZE,
            total: bills.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page) => update({ pageNum: String(page) }),
          }}
          columns={[
            {
              title: '时间',
              dataIndex: 'createTime',
              width: 180,
              render: (value: string) => chinaTime(value),
            },
            { title: '类型', dataIndex: 'typeName', width: 110 },
            {
              title: '金额',
              dataIndex: 'amount',
              width: 150,
              align: 'right',
              render: (amount: number) => (
                <span className={amount >= 0 ? 'bills__in' : 'bills__out'} data-testid="bill-amount">
                  {signedAmount(amount, formatMoney)}
                </span>
              ),
            },
            {
              title: '余额',
              dataIndex: 'balanceAfter',
              width: 150,
              align: 'right',
              render: (value: number) => formatMoney(value),
            },
            {
              title: '关联订单',
              dataIndex: 'orderNo',
              width: 240,
              render: (orderNo: string | null) =>
                orderNo ? (
                  <Link to={link(`/orderDetail?orderNo=${encodeURIComponent(orderNo)}`)}>{orderNo}</Link>
                ) : (
                  '—'
                ),
            },
            { title: '说明', dataIndex: 'note' },
          ]}
        />
      )}
    </section>
  );
}
