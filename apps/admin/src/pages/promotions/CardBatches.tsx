import {
  type ActionType,
  ModalForm,
  ProFormDigit,
  ProFormSelect,
  ProTable,
} from '@ant-design/pro-components';
import {
  CARD_BATCH_STATUS_LABEL,
  type CardBatch,
  type CardBatchStatus,
  adminPromotionsApi as promo,
} from '@sitemall/contract';
import { App, Button, Popconfirm, Tag, Typography } from 'antd';
import { useRef } from 'react';
import { call, callFile, pageOf, rowsOf } from '../../api';
import { searchForm, statusColumn } from '../../columns';
import { time, yuan } from '../../format';
import { useSession } from '../../session';
import { useRun } from '../write';
import { ReasonAction, ReasonField, SiteField } from './shared';

const STATUS_COLOR: Record<CardBatchStatus, string> = {
  submitted: 'orange',
  approved: 'green',
  rejected: 'red',
};

function CreateBatchForm({ onDone }: { onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <ModalForm<{ siteId: number; productId: number; quantity: number; reason: string }>
      name="createCardBatch"
      title="发卡（须财务复核）"
      width={480}
      trigger={<Button type="primary">发卡</Button>}
      modalProps={{ destroyOnClose: true }}
      onFinish={async (f) => {
        try {
          const batch = await call(promo.createCardBatch, f);
          message.info(`发卡单 #${batch.id} 已提交，等待另一名财务人员复核`);
          onDone();
          return true;
        } catch (e) {
          message.error((e as Error).message);
          return false;
        }
      }}
    >
      <SiteField />
      <ProFormSelect
        name="productId"
        label="卡包商品"
        dependencies={['siteId']}
        request={async ({ siteId }) =>
          siteId
            ? (await rowsOf(promo.packProducts, { siteId }))
                .filter((p) => p.status === 'active')
                .map((p) => ({ value: p.id, label: `${p.name}（面值 ${yuan(p.faceValue)}）` }))
            : []
        }
        rules={[{ required: true, message: '请选择卡包商品' }]}
      />
      <ProFormDigit
        name="quantity"
        label="张数"
        min={1}
        max={5000}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ReasonField label="发卡原因" />
    </ModalForm>
  );
}

/**
 * Card batches: the maker submits, a second operator with the finance permission approves (the
 * cards are generated then) or rejects; the maker's side downloads the codes and PINs once.
 */
export function CardBatches() {
  const { siteId, can, me } = useSession();
  const action = useRef<ActionType>(null);
  const reload = () => action.current?.reload();
  const run = useRun(reload);
  return (
    <ProTable<CardBatch, { status?: CardBatchStatus; siteId?: number }>
      form={searchForm()}
      headerTitle="发卡单"
      rowKey="id"
      actionRef={action}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无发卡单' }}
      request={(p) => pageOf(promo.cardBatches, { siteId: p.siteId, status: p.status, pageNum: p.current })}
      toolBarRender={() => (can('promotions:manage') ? [<CreateBatchForm key="new" onDone={reload} />] : [])}
      columns={[
        { title: '编号', dataIndex: 'id', search: false, width: 64 },
        { title: '站点', dataIndex: 'siteId', search: false, width: 64 },
        { title: '卡包商品', dataIndex: 'productName', search: false },
        { title: '面值', dataIndex: 'faceValue', search: false, render: (_, b) => yuan(b.faceValue) },
        { title: '张数', dataIndex: 'quantity', search: false, width: 64 },
        statusColumn(CARD_BATCH_STATUS_LABEL, STATUS_COLOR),
        { title: '制单人', dataIndex: 'makerName', search: false },
        { title: '复核人', dataIndex: 'approverName', search: false },
        { title: '原因', dataIndex: 'reason', search: false, ellipsis: true },
        {
          title: '卡号导出',
          dataIndex: 'exportedAt',
          search: false,
          render: (_, b) =>
            b.exportedAt ? (
              <Typography.Text type="secondary">
                {b.exportedBy} 于 {time(b.exportedAt, 'MM-DD HH:mm')} 导出
              </Typography.Text>
            ) : b.exportable ? (
              <Tag color="blue">待导出</Tag>
            ) : (
              '-'
            ),
        },
        {
          title: '提交时间',
          dataIndex: 'createdAt',
          search: false,
          render: (_, b) => time(b.createdAt, 'MM-DD HH:mm'),
        },
        {
          title: '操作',
          valueType: 'option',
          render: (_, b) => [
            b.status === 'submitted' && can('finance:manage', b.siteId) && b.makerId !== me.id ? (
              <Popconfirm
                key="approve"
                title={`复核通过并生成 ${b.quantity} 张卡？`}
                onConfirm={() =>
                  run(() => call(promo.approveCardBatch, { batchId: b.id }), '已复核，卡号已生成')
                }
              >
                <Button type="link" size="small">
                  复核通过
                </Button>
              </Popconfirm>
            ) : null,
            b.status === 'submitted' && can('finance:manage', b.siteId) && b.makerId !== me.id ? (
              <ReasonAction
                key="reject"
                label="驳回"
                danger
                title={`驳回发卡单 #${b.id}`}
                onSubmit={({ reason }) =>
                  run(() => call(promo.rejectCardBatch, { batchId: b.id, reason }), '已驳回')
                }
              />
            ) : null,
            b.exportable && can('promotions:manage', b.siteId) ? (
              <Popconfirm
                key="export"
                title="卡号与密码只能导出一次，请妥善保存文件。确定导出？"
                onConfirm={() =>
                  run(() => callFile(promo.exportCardBatch, { batchId: b.id }), '已导出，之后只显示掩码')
                }
              >
                <Button type="link" size="small">
                  导出卡号
                </Button>
              </Popconfirm>
            ) : null,
          ],
        },
      ]}
    />
  );
}
