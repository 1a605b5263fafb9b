import { CheckCircleFilled, CloseCircleFilled, FileExcelOutlined, ReloadOutlined } from '@ant-design/icons';
import type { BatchGroup, BatchPreview, BatchRow } from '@sitemall/contract';
import { Alert, Button, Popconfirm, Statistic, Switch, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useSite } from '../../../site/SiteProvider.tsx';
import { groupStates } from '../lib.ts';
import { recipientColumn } from './recipient.tsx';

/**
 * Step 3: every row with its errors, the orders per recipient with their totals and whether the
 * balance covers them; submitting is possible only when no row has an error.
 */
export function PreviewStep(props: {
  preview: BatchPreview;
  fileName: string;
  busy: boolean;
  onSubmit: () => void;
  onRestart: () => void;
}) {
  const { formatMoney } = useSite();
  const { preview } = props;
  const [onlyErrors, setOnlyErrors] = useState(preview.errorCount > 0);
  const validGroups = preview.groups.filter((g) => g.isValid);
  const rows = onlyErrors ? preview.rows.filter((r) => r.errors.length > 0) : preview.rows;
  const canSubmit = preview.errorCount === 0 && validGroups.length > 0;
  const states = groupStates(preview.groups, preview.balance);

  const rowColumns: TableColumnsType<BatchRow> = [
    { title: '行号', dataIndex: 'rowNo', width: 64 },
    {
      title: '商品',
      key: 'product',
      render: (_, r) =>
        r.name ? (
          <>
            <div className="batch-cell__name">{r.name}</div>
            <div className="batch-cell__sub">{r.specificationValue || r.specification}</div>
          </>
        ) : (
          <>
            <div>{r.product || '—'}</div>
            <div className="batch-cell__sub">{r.specification}</div>
          </>
        ),
    },
    { title: '数量', dataIndex: 'num', width: 64 },
    { title: '单价', key: 'price', width: 110, render: (_, r) => (r.price ? formatMoney(r.price) : '—') },
    { title: '小计', key: 'amount', width: 110, render: (_, r) => (r.amount ? formatMoney(r.amount) : '—') },
    recipientColumn(220),
    {
      title: '订单',
      dataIndex: 'groupNo',
      width: 70,
      render: (n: number | null) => (n ? <Tag>#{n}</Tag> : '—'),
    },
    {
      title: '校验结果',
      key: 'errors',
      width: 260,
      render: (_, r) =>
        r.errors.length === 0 ? (
          <span className="batch-ok">
            <CheckCircleFilled /> 通过
          </span>
        ) : (
          <ul className="batch-errors" data-testid="batch-row-errors">
            {r.errors.map((e) => (
              <li key={e}>
                <CloseCircleFilled /> {e}
              </li>
            ))}
          </ul>
        ),
    },
  ];

  const groupColumns: TableColumnsType<BatchGroup> = [
    { title: '订单', dataIndex: 'groupNo', width: 70, render: (n: number) => <Tag>#{n}</Tag> },
    recipientColumn(),
    { title: '行号', key: 'rows', width: 120, render: (_, g) => g.rowNos.join('、') },
    { title: '商品金额', key: 'goods', width: 120, render: (_, g) => formatMoney(g.goodsAmount) },
    { title: '运费', key: 'freight', width: 100, render: (_, g) => formatMoney(g.freightAmount) },
    {
      title: '合计',
      key: 'total',
      width: 120,
      render: (_, g) => <strong>{formatMoney(g.totalAmount)}</strong>,
    },
    {
      title: '状态',
      key: 'state',
      width: 110,
      render: (_, g) => {
        const state = states.get(g.groupNo);
        if (state === 'error') return <Tag color="error">有错误</Tag>;
        if (state === 'short')
          return (
            <Tag color="warning" title="积分余额不足以支付此订单，提交后为待付款">
              余额不足
            </Tag>
          );
        return <Tag color="success">可提交</Tag>;
      },
    },
  ];

  return (
    <div className="batch-step" data-testid="batch-step-preview">
      <div className="batch-file">
        <FileExcelOutlined /> {props.fileName}
        <Button type="link" icon={<ReloadOutlined />} onClick={props.onRestart}>
          重新上传
        </Button>
      </div>
      <div className="batch-stats">
        <Statistic title="商品行" value={preview.rows.length} />
        <Statistic
          title="错误行"
          value={preview.errorCount}
          valueStyle={preview.errorCount > 0 ? { color: '#cf1322' } : undefined}
        />
        <Statistic title="订单数（收货人）" value={validGroups.length} />
        <Statistic title="商品金额" value={formatMoney(preview.goodsAmount)} />
        <Statistic title="运费" value={formatMoney(preview.freightAmount)} />
        <Statistic
          title="应付合计"
          value={formatMoney(preview.totalAmount)}
          valueStyle={{ color: 'var(--sm-primary)' }}
        />
        <Statistic title="积分余额" value={formatMoney(preview.balance)} />
      </div>
      {preview.errorCount > 0 ? (
        <Alert
          type="error"
          showIcon
          className="batch-step__alert"
          message={`有 ${preview.errorCount} 行填写有误，请修改或删除这些行后重新上传`}
          description="出错的行已在下表中标出；整张表无误后才能提交。"
          data-testid="batch-has-errors"
        />
      ) : !preview.isBalanceEnough ? (
        <Alert
          type="warning"
          showIcon
          className="batch-step__alert"
          message="积分余额不足以支付全部订单"
          description="订单提交后为待付款，可在“我的订单”中逐个支付。"
        />
      ) : null}

      <h3 className="batch-section">按收货人汇总</h3>
      <Table
        rowKey="groupNo"
        size="middle"
        columns={groupColumns}
        dataSource={preview.groups}
        pagination={false}
        locale={{ emptyText: <span className="table-empty">没有可识别的收货人</span> }}
        data-testid="batch-groups"
      />

      <h3 className="batch-section">
        明细
        <span className="batch-section__tools">
          <Switch size="small" checked={onlyErrors} onChange={setOnlyErrors} /> 只看错误行
        </span>
      </h3>
      <Table
        rowKey="rowNo"
        size="middle"
        columns={rowColumns}
        dataSource={rows}
        rowClassName={(r) => (r.errors.length > 0 ? 'batch-row--error' : '')}
        pagination={rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        locale={{ emptyText: <span className="table-empty">没有错误行</span> }}
        data-testid="batch-rows"
      />

      <div className="batch-actions">
        <Button onClick={props.onRestart}>重新上传</Button>
        <Popconfirm
          title={`将为 ${validGroups.length} 个收货人各提交一个订单，确定提交吗？`}
          onConfirm={props.onSubmit}
          disabled={!canSubmit}
          okText="提交"
          cancelText="再看看"
        >
          <Button
            type="primary"
            size="large"
            disabled={!canSubmit}
            loading={props.busy}
            data-testid="batch-submit"
          >
            提交 {validGroups.length} 个订单
          </Button>
        </Popconfirm>
      </div>
    </div>
  );
}
