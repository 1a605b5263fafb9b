import { adminCatalogueApi as api, type ImportReport, type ImportRow } from '@sitemall/contract';
import { Alert, App, Button, Modal, Space, Table, Tag, Upload } from 'antd';
import { useState } from 'react';
import { callForm } from '../../api';

const RESULT: Record<ImportRow['result'], { color: string; text: string }> = {
  change: { color: 'blue', text: '修改' },
  same: { color: 'default', text: '无变化' },
  error: { color: 'red', text: '错误' },
};

/**
 * 导入 xlsx: the sheet the export writes, edited (站点价, 状态, 限购; 分类 for a product not yet
 * listed) and uploaded back. 检查 reports every row without saving; 导入 saves only when no row
 * has an error (all or nothing), and re-uploading the same sheet changes nothing.
 */
export function ImportButton({ siteId, onDone }: { siteId: number; onDone: () => void }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<ImportReport & { dryRun: boolean }>();
  const [busy, setBusy] = useState(false);
  const send = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    try {
      const answer = await callForm(api.importProducts, { siteId, dryRun }, file, file.name);
      setReport({ ...answer, dryRun });
      if (answer.applied) {
        message.success(`导入完成：${answer.products} 个商品已修改`);
        onDone();
      }
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setOpen(false);
    setFile(undefined);
    setReport(undefined);
  };
  return (
    <>
      <Button onClick={() => setOpen(true)}>导入 xlsx</Button>
      <Modal
        open={open}
        title={`导入商品表到站点 ${siteId}`}
        width={860}
        onCancel={close}
        destroyOnClose
        footer={[
          <Button key="close" onClick={close}>
            关闭
          </Button>,
          <Button key="check" disabled={!file} loading={busy} onClick={() => void send(true)}>
            检查
          </Button>,
          <Button
            key="import"
            type="primary"
            disabled={!file}
            loading={busy}
            onClick={() => void send(false)}
          >
            导入
          </Button>,
        ]}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="info"
            showIcon
            message="请先“导出 xlsx”，修改 站点价（元）、状态（在售/已下架）、限购（不限或件数）后上传；新增行可上架共享商品库的商品（须填全部规格与本站点的分类名称）。有任何错误行时不保存任何修改。"
          />
          <Upload
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              setReport(undefined);
              return false;
            }}
            onRemove={() => {
              setFile(undefined);
              setReport(undefined);
            }}
          >
            <Button>选择文件</Button>
          </Upload>
          {report && (
            <>
              <Alert
                data-testid="import-summary"
                type={report.errors ? 'error' : report.applied ? 'success' : 'info'}
                showIcon
                message={
                  report.errors
                    ? `${report.errors} 行有错误，未保存任何修改；请修改后重新上传`
                    : report.applied
                      ? `已导入：${report.products} 个商品已修改`
                      : `检查通过：将修改 ${report.products} 个商品（尚未保存）`
                }
              />
              <Table<ImportRow>
                size="small"
                rowKey="rowNo"
                dataSource={report.rows}
                pagination={{ pageSize: 8, showSizeChanger: false }}
                columns={[
                  { title: '行', dataIndex: 'rowNo', width: 56 },
                  { title: '商品编号', dataIndex: 'productId', width: 84 },
                  { title: '规格编号', dataIndex: 'specificationId', width: 84 },
                  { title: '商品', dataIndex: 'name', ellipsis: true },
                  {
                    title: '结果',
                    dataIndex: 'result',
                    width: 80,
                    render: (_, r) => <Tag color={RESULT[r.result].color}>{RESULT[r.result].text}</Tag>,
                  },
                  { title: '说明', dataIndex: 'message' },
                ]}
              />
            </>
          )}
        </Space>
      </Modal>
    </>
  );
}
