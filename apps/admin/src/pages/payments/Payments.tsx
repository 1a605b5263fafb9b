import { ReloadOutlined } from '@ant-design/icons';
import { ProCard, ProTable } from '@ant-design/pro-components';
import {
  type AdminRefund,
  type AdminTrade,
  adminPaymentApi as api,
  type BodyOf,
  type BooksCheck,
  WECHAT_REFUND_STATUS_LABEL,
  WECHAT_TRADE_STATE_LABEL,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Empty, Space, Statistic, Table, Tabs, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useRef, useState } from 'react';
import { call, callFile, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { chinaNow, dayRangeColumn, enumOf, time, yuan } from '../../format';
import { useSession } from '../../session';

interface Filters {
  orderNo?: string;
  tradeNo?: string;
  state?: string;
  status?: string;
  createdAt?: [string, string];
  siteId?: number;
  current?: number;
}

const dayRange = { title: '日期', ...dayRangeColumn('createdAt'), hideInTable: true };
const searchOf = (p: Filters) => ({
  siteId: p.siteId,
  orderNo: p.orderNo?.trim() || undefined,
  tradeNo: p.tradeNo?.trim() || undefined,
  from: p.createdAt?.[0],
  to: p.createdAt?.[1],
});

const STATE_COLOR: Record<string, string> = {
  paid: 'green',
  open: 'blue',
  refunded: 'purple',
  refunding: 'orange',
  failed: 'red',
};

/** WeChat trades of the operator's sites, searchable, exported as the search shows them. */
function Trades() {
  const { siteId } = useSession();
  const { message } = App.useApp();
  const last = useRef<BodyOf<typeof api.exportTrades>>({});
  const [exporting, setExporting] = useState(false);
  const exportNow = async () => {
    setExporting(true);
    try {
      message.success(`已导出 ${await callFile(api.exportTrades, last.current)}`);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setExporting(false);
    }
  };
  return (
    <ProTable<AdminTrade, Filters>
      form={searchForm()}
      headerTitle="微信支付交易"
      rowKey="id"
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: <Empty description="没有符合条件的交易" /> }}
      toolBarRender={() => [
        <Button key="export" loading={exporting} onClick={() => void exportNow()}>
          导出 Excel
        </Button>,
      ]}
      request={(p) => {
        last.current = { ...searchOf(p), state: p.state };
        return pageOf(api.trades, { ...last.current, pageNum: p.current });
      }}
      columns={[
        { title: '订单号', dataIndex: 'orderNo', copyable: true },
        { title: '交易号', dataIndex: 'tradeNo', hideInTable: true, tooltip: '商户订单号或微信支付单号' },
        { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
        { title: '商户订单号', dataIndex: 'outTradeNo', search: false, copyable: true, ellipsis: true },
        { title: '微信支付单号', dataIndex: 'transactionId', search: false, copyable: true, ellipsis: true },
        {
          title: '状态',
          dataIndex: 'state',
          valueEnum: enumOf(WECHAT_TRADE_STATE_LABEL),
          render: (_, r) => <Tag color={STATE_COLOR[r.state]}>{r.stateName}</Tag>,
        },
        { title: '微信支付', dataIndex: 'cashAmount', search: false, render: (_, r) => yuan(r.cashAmount) },
        {
          title: '积分抵扣',
          dataIndex: 'pointsAmount',
          search: false,
          render: (_, r) => yuan(r.pointsAmount),
        },
        {
          title: '已退款',
          dataIndex: 'refundedAmount',
          search: false,
          render: (_, r) => yuan(r.refundedAmount),
        },
        dayRange,
        { title: '创建时间', dataIndex: 'created', search: false, render: (_, r) => time(r.createdAt) },
        { title: '支付时间', dataIndex: 'paidAt', search: false, render: (_, r) => time(r.paidAt) },
      ]}
    />
  );
}

function Refunds() {
  const { siteId } = useSession();
  return (
    <ProTable<AdminRefund, Filters>
      form={searchForm()}
      headerTitle="微信退款"
      rowKey="id"
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: <Empty description="没有符合条件的退款" /> }}
      request={(p) =>
        pageOf(api.refunds, {
          ...searchOf(p),
          status: p.status as BodyOf<typeof api.refunds>['status'],
          pageNum: p.current,
        })
      }
      columns={[
        { title: '订单号', dataIndex: 'orderNo', copyable: true },
        {
          title: '单号',
          dataIndex: 'tradeNo',
          hideInTable: true,
          tooltip: '退款单号、微信退款单号或商户订单号',
        },
        { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
        { title: '退款单号', dataIndex: 'outRefundNo', search: false, copyable: true, ellipsis: true },
        { title: '商户订单号', dataIndex: 'outTradeNo', search: false, ellipsis: true },
        { title: '金额', dataIndex: 'amount', search: false, render: (_, r) => yuan(r.amount) },
        { title: '原因', dataIndex: 'reason', search: false, ellipsis: true },
        {
          title: '状态',
          dataIndex: 'status',
          valueEnum: enumOf(WECHAT_REFUND_STATUS_LABEL),
          render: (_, r) => (
            <Tag
              color={
                r.status === 'SUCCESS'
                  ? 'green'
                  : r.status === 'ABNORMAL' || r.status === 'CLOSED'
                    ? 'red'
                    : 'blue'
              }
            >
              {r.statusName}
            </Tag>
          ),
        },
        dayRange,
        { title: '申请时间', dataIndex: 'created', search: false, render: (_, r) => time(r.createdAt) },
        { title: '更新时间', dataIndex: 'updatedAt', search: false, render: (_, r) => time(r.updatedAt) },
      ]}
    />
  );
}

const EXCEPTION_KIND: Record<string, { text: string; color: string }> = {
  unapplied: { text: '未入账', color: 'red' },
  refund: { text: '退款异常', color: 'orange' },
  notify: { text: '通知被拒', color: 'default' },
};

/** Per China day: WeChat codes paid against the money journal, and what does not match. */
function Reconcile() {
  const { siteId } = useSession();
  // No range chosen: the server's default, the last 7 days in China time (the mall's days).
  const [range, setRange] = useState<[Dayjs, Dayjs]>();
  const query = {
    siteId,
    from: range?.[0].format('YYYY-MM-DD'),
    to: range?.[1].format('YYYY-MM-DD'),
  };
  const rec = useQuery({
    queryKey: ['reconciliation', query],
    queryFn: () => call(api.reconciliation, query),
  });
  const shown: [Dayjs, Dayjs] | undefined =
    range ?? (rec.data ? [dayjs(rec.data.from), dayjs(rec.data.to)] : undefined);
  const days = rec.data?.days ?? [];
  const sum = (f: (d: (typeof days)[number]) => number) => days.reduce((n, d) => n + f(d), 0);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <ProCard
        title="对账结果"
        extra={
          <DatePicker.RangePicker
            allowClear={false}
            value={shown}
            disabledDate={(d) => d.isAfter(chinaNow(), 'day')}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
        }
      >
        {rec.isError ? <Alert type="error" showIcon message={(rec.error as Error).message} /> : null}
        <Space size="large" style={{ marginBottom: 16 }}>
          <Statistic title="微信已支付（元）" value={yuan(sum((d) => d.paidAmount))} />
          <Statistic title="流水入账（元）" value={yuan(sum((d) => d.journalIn))} />
          <Statistic title="流水退款（元）" value={yuan(sum((d) => d.journalOut))} />
          <Statistic
            title="差额（元）"
            value={yuan(sum((d) => d.difference))}
            valueStyle={{ color: sum((d) => d.difference) === 0 ? '#3f8600' : '#cf1322' }}
          />
        </Space>
        <Table
          rowKey={(d) => `${d.day}-${d.siteId}`}
          size="small"
          loading={rec.isPending}
          dataSource={days}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          locale={{ emptyText: <Empty description="所选日期内没有微信支付" /> }}
          columns={[
            { title: '日期', dataIndex: 'day' },
            { title: '站点', dataIndex: 'siteId' },
            { title: '支付笔数', dataIndex: 'paidCount' },
            { title: '微信已支付', dataIndex: 'paidAmount', render: (v: number) => yuan(v) },
            { title: '流水入账', dataIndex: 'journalIn', render: (v: number) => yuan(v) },
            { title: '流水退款', dataIndex: 'journalOut', render: (v: number) => yuan(v) },
            {
              title: '差额',
              dataIndex: 'difference',
              render: (v: number) => <Tag color={v === 0 ? 'green' : 'red'}>{v === 0 ? '平' : yuan(v)}</Tag>,
            },
          ]}
        />
      </ProCard>
      <ProCard title="异常明细">
        <Table
          rowKey={(e) => `${e.kind}-${e.reference}`}
          size="small"
          loading={rec.isPending}
          dataSource={rec.data?.exceptions ?? []}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          locale={{ emptyText: <Empty description="没有对账异常" /> }}
          columns={[
            {
              title: '类型',
              dataIndex: 'kind',
              render: (k: string) => (
                <Tag color={EXCEPTION_KIND[k]?.color}>{EXCEPTION_KIND[k]?.text ?? k}</Tag>
              ),
            },
            { title: '站点', dataIndex: 'siteId' },
            { title: '单号', dataIndex: 'reference' },
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '说明', dataIndex: 'detail' },
            { title: '时间', dataIndex: 'at', render: (v: string) => time(v) },
          ]}
        />
      </ProCard>
    </Space>
  );
}

/** 账务核对: each check of the books, with what does not add up when something does not. */
function Books() {
  const { siteId } = useSession();
  const books = useQuery({
    queryKey: ['payments', 'books', siteId],
    queryFn: () => call(api.books, siteId ? { siteId } : {}),
  });
  const checks = books.data?.checks ?? [];
  const wrong = checks.filter((c) => c.problems.length > 0).length;
  return (
    <ProCard
      title="账务核对"
      subTitle={books.data ? `核对时间 ${time(books.data.checkedAt)}` : undefined}
      extra={
        <Button icon={<ReloadOutlined />} loading={books.isFetching} onClick={() => void books.refetch()}>
          重新核对
        </Button>
      }
    >
      {books.isError ? <Alert type="error" showIcon message={(books.error as Error).message} /> : null}
      {books.data ? (
        <Alert
          style={{ marginBottom: 16 }}
          showIcon
          type={wrong === 0 ? 'success' : 'error'}
          message={wrong === 0 ? '账务全部相符' : `${wrong} 项核对不符，请查看明细`}
        />
      ) : null}
      <Table<BooksCheck>
        rowKey="key"
        size="small"
        loading={books.isPending}
        dataSource={checks}
        pagination={false}
        expandable={{
          // The expand column only when a check has problems to show: otherwise an empty gutter.
          showExpandColumn: wrong > 0,
          rowExpandable: (c) => c.problems.length > 0,
          expandedRowRender: (c) => (
            <Table
              size="small"
              rowKey="subject"
              pagination={false}
              dataSource={c.problems}
              columns={[
                { title: '站点', dataIndex: 'siteId', width: 80 },
                { title: '对象', dataIndex: 'subject' },
                { title: '应为（元）', dataIndex: 'expected', render: (v: number) => yuan(v) },
                { title: '实际（元）', dataIndex: 'actual', render: (v: number) => yuan(v) },
              ]}
            />
          ),
        }}
        columns={[
          { title: '核对项', dataIndex: 'label' },
          { title: '核对条数', dataIndex: 'checked', width: 120 },
          {
            title: '结果',
            key: 'result',
            width: 140,
            render: (_, c) =>
              c.problems.length === 0 ? (
                <Tag color="green">一致</Tag>
              ) : (
                <Tag color="red">{`${c.problems.length} 处不符`}</Tag>
              ),
          },
        ]}
      />
    </ProCard>
  );
}

/** Payments, read-only: trades, refunds, the reconciliation and the books of the operator's sites. */
export function PaymentsPage() {
  return (
    <Tabs
      destroyInactiveTabPane
      items={[
        { key: 'trades', label: '支付交易', children: <Trades /> },
        { key: 'refunds', label: '退款', children: <Refunds /> },
        { key: 'reconcile', label: '对账', children: <Reconcile /> },
        { key: 'books', label: '账务核对', children: <Books /> },
      ]}
    />
  );
}
