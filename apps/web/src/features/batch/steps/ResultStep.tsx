import { DownloadOutlined } from '@ant-design/icons';
import type { BatchOrderResult, BatchSubmitResult } from '@sitemall/contract';
import { Button, Result, Table, type TableColumnsType, Tag } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { recipientColumn } from './recipient.tsx';

/** Step 4: one order per recipient or why it failed, the report, and the way to pay. */
export function ResultStep(props: {
  result: BatchSubmitResult;
  busy: boolean;
  onReport: () => void;
  onRestart: () => void;
}) {
  const { formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { result } = props;
  const columns: TableColumnsType<BatchOrderResult> = [
    recipientColumn(),
    { title: '行号', key: 'rows', width: 110, render: (_, r) => r.rowNos.join('、') },
    {
      title: '结果',
      key: 'result',
      width: 90,
      render: (_, r) => (r.isSuccess ? <Tag color="success">已下单</Tag> : <Tag color="error">失败</Tag>),
    },
    {
      title: '订单号',
      key: 'orderNo',
      width: 260,
      render: (_, r) =>
        r.orderNo ? (
          <Link
            to={link(`/orderDetail?orderNo=${encodeURIComponent(r.orderNo)}`)}
            data-testid="batch-order-link"
          >
            {r.orderNo}
          </Link>
        ) : (
          '—'
        ),
    },
    {
      title: '应付',
      key: 'pay',
      width: 120,
      render: (_, r) => (r.isSuccess ? formatMoney(r.payAmount) : '—'),
    },
    {
      title: '说明',
      dataIndex: 'msg',
      render: (msg: string, r) => (r.isSuccess ? '待付款' : <span className="batch-fail">{msg}</span>),
    },
  ];
  const status = result.failureCount === 0 ? 'success' : result.successCount === 0 ? 'error' : 'warning';
  return (
    <div className="batch-step" data-testid="batch-step-result">
      <Result
        status={status}
        title={
          result.failureCount === 0
            ? `已提交 ${result.successCount} 个订单`
            : `已提交 ${result.successCount} 个订单，${result.failureCount} 个失败`
        }
        subTitle={`应付合计 ${formatMoney(result.payAmount)}。订单为待付款，请在“我的订单”中支付；失败的收货人没有下单，可调整后再次提交同一文件，已成功的不会重复下单。`}
        extra={[
          <Button key="orders" type="primary" onClick={() => navigate(link('/myOrder'))}>
            去我的订单支付
          </Button>,
          <Button
            key="report"
            icon={<DownloadOutlined />}
            loading={props.busy}
            onClick={props.onReport}
            data-testid="batch-report"
          >
            下载结果报表
          </Button>,
          <Button key="again" onClick={props.onRestart}>
            再来一批
          </Button>,
        ]}
      />
      <Table
        rowKey="groupNo"
        size="middle"
        columns={columns}
        dataSource={result.results}
        pagination={false}
        rowClassName={(r) => (r.isSuccess ? '' : 'batch-row--error')}
        data-testid="batch-results"
      />
    </div>
  );
}
