import {
  CheckCircleFilled,
  CloseCircleFilled,
  DownloadOutlined,
  FileExcelOutlined,
  InboxOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import {
  BATCH_COLUMNS,
  BATCH_MAX_BYTES,
  BATCH_MAX_ROWS,
  type BatchGroup,
  type BatchOrderResult,
  type BatchPreview,
  type BatchRow,
  type BatchSubmitResult,
} from '@sitemall/contract';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Popconfirm,
  Result,
  Space,
  Spin,
  Statistic,
  Steps,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Upload,
} from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { downloadReport, downloadTemplate, previewBatch, submitBatch } from './api.ts';
import { groupStates } from './lib.ts';
import './batch.css';

type Step = 0 | 1 | 2 | 3;
const errorText = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);

/**
 * /batchOrder (spec section 2): download the template, upload a filled sheet, preview every
 * row with its errors and the totals per recipient, submit one order per recipient.
 */
export function BatchOrder() {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const [step, setStep] = useState<Step>(0);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<BatchPreview | null>(null);
  const [result, setResult] = useState<BatchSubmitResult | null>(null);
  const [uploadError, setUploadError] = useState('');
  const [busy, setBusy] = useState<'' | 'template' | 'upload' | 'submit' | 'report'>('');
  const site = siteId ?? '';

  const getTemplate = async () => {
    setBusy('template');
    try {
      await downloadTemplate(site);
    } catch (error) {
      void message.error(errorText(error, '模板下载失败'));
    } finally {
      setBusy('');
    }
  };

  const upload = async (chosen: File) => {
    setUploadError('');
    if (chosen.size > BATCH_MAX_BYTES) {
      setUploadError('文件不能超过 1 MB');
      return;
    }
    setBusy('upload');
    try {
      const checked = await previewBatch(site, chosen);
      setFile(chosen);
      setPreview(checked);
      setStep(2);
    } catch (error) {
      setUploadError(errorText(error, '文件校验失败'));
    } finally {
      setBusy('');
    }
  };

  const submit = async () => {
    if (!file) return;
    setBusy('submit');
    try {
      setResult(await submitBatch(site, file));
      setStep(3);
    } catch (error) {
      void message.error(errorText(error, '批量下单失败'));
    } finally {
      setBusy('');
    }
  };

  const getReport = async () => {
    if (!file) return;
    setBusy('report');
    try {
      await downloadReport(site, file);
    } catch (error) {
      void message.error(errorText(error, '结果报表下载失败'));
    } finally {
      setBusy('');
    }
  };

  const restart = () => {
    setFile(null);
    setPreview(null);
    setResult(null);
    setUploadError('');
    setStep(1);
  };

  return (
    <section className="page-card batch-order" data-testid="batch-order">
      <h2 className="page-card__title">批量下单</h2>
      <p className="batch-order__lead">
        按模板填写商品与收货信息，上传后逐行校验；收货人、手机号和地址相同的行合并为一个订单，每个订单独立提交。
      </p>
      <Steps
        className="batch-order__steps"
        current={step}
        items={[{ title: '下载模板' }, { title: '上传文件' }, { title: '预览' }, { title: '提交' }]}
      />
      {step === 0 && (
        <TemplateStep busy={busy === 'template'} onDownload={getTemplate} onNext={() => setStep(1)} />
      )}
      {step === 1 && (
        <UploadStep busy={busy === 'upload'} error={uploadError} onFile={upload} onBack={() => setStep(0)} />
      )}
      {step === 2 && preview && (
        <PreviewStep
          preview={preview}
          fileName={file?.name ?? ''}
          busy={busy === 'submit'}
          onSubmit={submit}
          onRestart={restart}
        />
      )}
      {step === 3 && result && (
        <ResultStep result={result} busy={busy === 'report'} onReport={getReport} onRestart={restart} />
      )}
    </section>
  );
}

function TemplateStep(props: { busy: boolean; onDownload: () => void; onNext: () => void }) {
  return (
    <div className="batch-step" data-testid="batch-step-template">
      <Descriptions
        bordered
        size="small"
        column={1}
        title="模板各列说明"
        items={BATCH_COLUMNS.map((c) => ({ key: c.key, label: c.title, children: c.note }))}
      />
      <ul className="batch-step__notes">
        <li>每行一种商品；收货人、手机号和地址都相同的行合并为一个订单。</li>
        <li>一次最多 {BATCH_MAX_ROWS} 行，文件不超过 1 MB；支持 xlsx，或另存为 UTF-8 编码的 csv。</li>
        <li>订单提交后为待付款，请到“我的订单”中支付。</li>
      </ul>
      <Space>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          loading={props.busy}
          onClick={props.onDownload}
          data-testid="batch-download-template"
        >
          下载模板
        </Button>
        <Button onClick={props.onNext} data-testid="batch-to-upload">
          已有填好的文件，去上传
        </Button>
      </Space>
    </div>
  );
}

function UploadStep(props: {
  busy: boolean;
  error: string;
  onFile: (file: File) => void;
  onBack: () => void;
}) {
  return (
    <div className="batch-step" data-testid="batch-step-upload">
      <Spin spinning={props.busy} tip="正在校验文件…">
        <Upload.Dragger
          accept=".xlsx,.csv"
          multiple={false}
          showUploadList={false}
          disabled={props.busy}
          customRequest={({ file, onSuccess }) => {
            props.onFile(file as File);
            onSuccess?.({});
          }}
          data-testid="batch-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖拽文件到此处上传</p>
          <p className="ant-upload-hint">支持 xlsx、csv（UTF-8），不超过 1 MB、{BATCH_MAX_ROWS} 行</p>
        </Upload.Dragger>
      </Spin>
      {props.error && (
        <Alert
          className="batch-step__alert"
          type="error"
          showIcon
          message="文件无法读取"
          description={props.error}
          data-testid="batch-upload-error"
        />
      )}
      <Button className="batch-step__back" onClick={props.onBack}>
        返回下载模板
      </Button>
    </div>
  );
}

function PreviewStep(props: {
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
    {
      title: '收货人',
      key: 'recipient',
      width: 220,
      render: (_, r) => (
        <>
          <div>
            {r.consignee} {r.phone}
          </div>
          <div className="batch-cell__sub">{r.address}</div>
        </>
      ),
    },
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
    {
      title: '收货人',
      key: 'recipient',
      render: (_, g) => (
        <>
          <div>
            {g.consignee} {g.phone}
          </div>
          <div className="batch-cell__sub">{g.address}</div>
        </>
      ),
    },
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

function ResultStep(props: {
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
    {
      title: '收货人',
      key: 'recipient',
      render: (_, r) => (
        <>
          <div>
            {r.consignee} {r.phone}
          </div>
          <div className="batch-cell__sub">{r.address}</div>
        </>
      ),
    },
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
