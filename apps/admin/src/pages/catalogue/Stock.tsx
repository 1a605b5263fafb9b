import {
  type ActionType,
  ModalForm,
  PageContainer,
  ProCard,
  ProFormDigit,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  adminCatalogueApi as api,
  LOW_STOCK_BELOW,
  MAX_STOCK_DELTA,
  type StockMoveRow,
  type StockSpec,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Table, Tag, Typography } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { time } from '../../format';
import { useSession } from '../../session';
import { useRun } from '../write';
import { lowStockColumns, useWorkSite } from './shared';

/** Adds or takes pieces with a reason (recorded in the stock ledger). */
function AdjustForm({ siteId, spec, onDone }: { siteId: number; spec: StockSpec; onDone: () => void }) {
  const run = useRun(onDone);
  return (
    <ModalForm<{ delta: number; reason: string }>
      name="adjustStock"
      title={`调整库存：${spec.name} · ${spec.specificationValue}`}
      width={460}
      trigger={
        <Button type="link" size="small">
          调整
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      onFinish={(form) =>
        run(
          () =>
            call(api.adjust, {
              siteId,
              specificationId: spec.specificationId,
              delta: form.delta,
              reason: form.reason,
            }),
          '库存已调整',
        )
      }
    >
      <Typography.Paragraph>当前库存 {spec.stock} 件</Typography.Paragraph>
      <ProFormDigit
        name="delta"
        label="调整数量"
        extra="正数为入库，负数为出库；调整后库存不能小于 0"
        min={-MAX_STOCK_DELTA}
        max={MAX_STOCK_DELTA}
        fieldProps={{ precision: 0, addonAfter: '件' }}
        rules={[
          { required: true, message: '请填写调整数量' },
          {
            validator: (_: unknown, value: number | undefined) =>
              value === 0
                ? Promise.reject(new Error('调整数量不能为 0'))
                : value !== undefined && value !== null && spec.stock + value < 0
                  ? Promise.reject(new Error('库存不足，调整后库存不能小于 0'))
                  : Promise.resolve(),
          },
        ]}
      />
      <ProFormTextArea
        name="reason"
        label="调整原因"
        rules={[{ required: true, whitespace: true, message: '请填写操作原因' }]}
        fieldProps={{ maxLength: 200, showCount: true }}
      />
    </ModalForm>
  );
}

/** The ledger of one specification's moves, newest first. */
function Ledger({ siteId, spec, onClose }: { siteId: number; spec: StockSpec; onClose: () => void }) {
  const [pageNum, setPageNum] = useState(1);
  const moves = useQuery({
    queryKey: ['stock-moves', siteId, spec.specificationId, pageNum],
    queryFn: () => call(api.moves, { siteId, specificationId: spec.specificationId, pageNum }),
  });
  return (
    <Drawer open width={720} title={`库存流水：${spec.name} · ${spec.specificationValue}`} onClose={onClose}>
      <Table<StockMoveRow>
        rowKey="id"
        size="small"
        loading={moves.isPending}
        dataSource={moves.data?.list ?? []}
        locale={{ emptyText: <Empty description="暂无调整记录" /> }}
        pagination={{
          current: pageNum,
          pageSize: 10,
          total: moves.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', render: (v: string) => time(v) },
          {
            title: '变动',
            dataIndex: 'delta',
            render: (v: number) => <Tag color={v > 0 ? 'green' : 'orange'}>{v > 0 ? `+${v}` : v}</Tag>,
          },
          { title: '调整后', dataIndex: 'stockAfter' },
          { title: '站点', dataIndex: 'siteId' },
          { title: '操作人', dataIndex: 'operatorName' },
          { title: '原因', dataIndex: 'reason' },
        ]}
      />
    </Drawer>
  );
}

function LowStock({ siteId }: { siteId: number }) {
  const low = useQuery({
    queryKey: ['low-stock', siteId],
    queryFn: () => call(api.lowStock, { siteId }),
  });
  return (
    <ProCard title={`低库存（在售，少于 ${LOW_STOCK_BELOW} 件）`} headerBordered collapsible>
      <Table<StockSpec>
        rowKey="specificationId"
        size="small"
        loading={low.isPending}
        dataSource={low.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description="没有低库存的规格" /> }}
        columns={[{ title: '商品编号', dataIndex: 'productId', width: 90 }, ...lowStockColumns<StockSpec>()]}
      />
    </ProCard>
  );
}

function StockTable({ siteId, picker }: { siteId: number; picker: ReactNode }) {
  const { can } = useSession();
  const action = useRef<ActionType>(null);
  const [ledgerOf, setLedgerOf] = useState<StockSpec>();
  const manage = can('stock:manage', siteId);
  return (
    <>
      <ProTable<StockSpec, { siteId: number; keyword?: string; below?: number }>
        form={searchForm()}
        headerTitle="规格库存"
        rowKey="specificationId"
        actionRef={action}
        params={{ siteId }}
        search={{ labelWidth: 'auto' }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="没有符合条件的规格" /> }}
        request={(p) =>
          pageOf(api.stock, {
            siteId,
            keyword: p.keyword || undefined,
            below: p.below || undefined,
            pageNum: p.current,
          })
        }
        toolBarRender={() => [picker]}
        columns={[
          { title: '商品编号/名称', dataIndex: 'keyword', hideInTable: true },
          {
            title: '库存少于',
            dataIndex: 'below',
            hideInTable: true,
            valueType: 'digit',
            fieldProps: { precision: 0, min: 1 },
          },
          { title: '商品编号', dataIndex: 'productId', width: 90, search: false },
          { title: '商品', dataIndex: 'name', search: false },
          { title: '规格编号', dataIndex: 'specificationId', width: 90, search: false },
          { title: '规格', dataIndex: 'specificationValue', search: false },
          {
            title: '库存',
            dataIndex: 'stock',
            search: false,
            render: (_, s) => (s.stock < LOW_STOCK_BELOW ? <Tag color="orange">{s.stock}</Tag> : s.stock),
          },
          {
            title: '状态',
            dataIndex: 'isOnSale',
            search: false,
            render: (_, s) => (s.isOnSale ? <Tag color="green">在售</Tag> : <Tag>已下架</Tag>),
          },
          {
            title: '操作',
            valueType: 'option',
            render: (_, s) => [
              ...(manage
                ? [
                    <AdjustForm
                      key="adjust"
                      siteId={siteId}
                      spec={s}
                      onDone={() => action.current?.reload()}
                    />,
                  ]
                : []),
              <Button key="ledger" type="link" size="small" onClick={() => setLedgerOf(s)}>
                流水
              </Button>,
            ],
          },
        ]}
      />
      {ledgerOf ? <Ledger siteId={siteId} spec={ledgerOf} onClose={() => setLedgerOf(undefined)} /> : null}
    </>
  );
}

/** 库存管理: stock per specification with adjustments and their ledger, and the low-stock list. */
export function StockPage() {
  const { siteId, picker } = useWorkSite('stock:view');
  return (
    <PageContainer header={{ title: '库存管理' }}>
      {siteId ? (
        <>
          <LowStock key={`low-${siteId}`} siteId={siteId} />
          <div style={{ height: 16 }} />
          <StockTable key={siteId} siteId={siteId} picker={picker} />
        </>
      ) : (
        <Alert type="info" showIcon message="您没有可管理库存的站点" />
      )}
    </PageContainer>
  );
}
