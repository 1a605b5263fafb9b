import { DownloadOutlined } from '@ant-design/icons';
import { BATCH_COLUMNS, BATCH_MAX_ROWS } from '@sitemall/contract';
import { Button, Descriptions, Space } from 'antd';

/** Step 1: what each column of the template means, and the template to download. */
export function TemplateStep(props: { busy: boolean; onDownload: () => void; onNext: () => void }) {
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
