import { type ActionType, ProFormDigit, ProFormSelect, ProTable } from '@ant-design/pro-components';
import {
  adminProviderApi as api,
  CODE_ROW_RESULT_LABEL,
  type CodeRowResult,
  type CodeStockRow,
  type ImportCodesResult,
} from '@sitemall/contract';
import { Alert, Button, Card, Empty, Space, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { time } from '../../format';
import { useSession, useSitesWith } from '../../session';
import { CsvModalForm } from '../CsvModalForm';
import { ReasonField } from '../promotions/shared';
import { useWrite } from '../write';

const RESULT_COLOR: Record<CodeRowResult, string> = {
  added: 'green',
  duplicate: 'orange',
  repeated: 'orange',
  invalid: 'red',
};

/** Imports a CSV of e-codes for one specification; the text travels in the request, sealed on arrival. */
function ImportForm({ onDone }: { onDone: (result: ImportCodesResult) => void }) {
  const write = useWrite();
  const sites = useSitesWith('stock:manage');
  return (
    <CsvModalForm<{ siteId: number; specificationId: number; reason: string }>
      title="导入电子码（CSV）"
      trigger={<Button type="primary">导入电子码</Button>}
      hint="每行一个电子码（第一列）；首行可为表头“电子码”。重复的电子码不会导入，保存时加密。"
      initialValues={{ siteId: sites.initial }}
      fields={
        <>
          <ProFormSelect name="siteId" label="站点" options={sites.options} rules={[{ required: true }]} />
          <ProFormDigit
            name="specificationId"
            label="商品规格 ID"
            min={1}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写电子码商品的规格 ID' }]}
          />
        </>
      }
      onFinish={(form, file) =>
        write(
          () => call(api.importCodes, { ...form, fileName: file.name, text: file.text }),
          (result) => `已导入 ${result.added} 个电子码`,
          onDone,
        )
      }
    >
      <ReasonField label="导入原因" />
    </CsvModalForm>
  );
}

/** What an import did, line by line (codes masked). */
function ImportReport({ result }: { result: ImportCodesResult }) {
  return (
    <Card size="small" title={`导入结果（批次 ${result.batch}）`}>
      <Alert
        type={result.added > 0 ? 'success' : 'warning'}
        showIcon
        style={{ marginBottom: 12 }}
        message={`新增 ${result.added} 个，重复 ${result.duplicates} 个，无效 ${result.invalid} 个；该规格现有可用库存 ${result.available} 个`}
      />
      <Table
        size="small"
        rowKey="line"
        dataSource={result.rows}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        columns={[
          { title: '行号', dataIndex: 'line', width: 70 },
          { title: '电子码（脱敏）', dataIndex: 'maskedCode' },
          {
            title: '结果',
            dataIndex: 'result',
            render: (r: CodeRowResult) => <Tag color={RESULT_COLOR[r]}>{CODE_ROW_RESULT_LABEL[r]}</Tag>,
          },
          { title: '说明', dataIndex: 'msg' },
        ]}
      />
    </Card>
  );
}

/** E-code stock per goods (specification), and the CSV import. */
export function CodeStock() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const [report, setReport] = useState<ImportCodesResult>();
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <ProTable<CodeStockRow, { siteId?: number }>
        headerTitle="电子码库存"
        rowKey={(r) => `${r.siteId}-${r.specificationId}`}
        actionRef={action}
        search={false}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="还没有导入电子码" /> }}
        toolBarRender={() =>
          can('stock:manage')
            ? [
                <ImportForm
                  key="import"
                  onDone={(result) => {
                    setReport(result);
                    action.current?.reload();
                  }}
                />,
              ]
            : []
        }
        request={(p) => pageOf(api.codeStock, { siteId: p.siteId, pageNum: p.current })}
        columns={[
          { title: '站点', dataIndex: 'siteId', width: 80 },
          { title: '商品规格 ID', dataIndex: 'specificationId' },
          { title: '总数', dataIndex: 'total' },
          {
            title: '可用',
            dataIndex: 'available',
            render: (_, r) => <Tag color={r.available > 0 ? 'green' : 'red'}>{r.available}</Tag>,
          },
          { title: '已发放', dataIndex: 'assigned' },
          { title: '最近导入', dataIndex: 'lastImportTime', render: (_, r) => time(r.lastImportTime) },
        ]}
      />
      {report ? <ImportReport result={report} /> : null}
    </Space>
  );
}
