import { InboxOutlined } from '@ant-design/icons';
import { BATCH_MAX_ROWS } from '@sitemall/contract';
import { Alert, Button, Spin, Upload } from 'antd';

/** Step 2: the filled sheet is dropped here; a sheet that cannot be read says why. */
export function UploadStep(props: {
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
