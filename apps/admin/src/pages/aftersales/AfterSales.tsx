import { type ActionType, ProTable } from '@ant-design/pro-components';
import {
  AFTER_SALE_KIND_LABEL,
  AFTER_SALE_STATUS_LABEL,
  type AfterSaleKind,
  type AfterSaleStatus,
  adminAfterSaleApi as api,
  type QueueCase,
} from '@sitemall/contract';
import { Button, Space, Tag } from 'antd';
import { useRef, useState } from 'react';
import { pageOf } from '../../api';
import { searchForm } from '../../columns';
import { enumOf, time } from '../../format';
import { useSession } from '../../session';
import { CaseDrawer } from './CaseDrawer';

/** Waiting longer than a day is late, longer than three days overdue (the queue's colours). */
const ageColor = (hours: number) => (hours >= 72 ? 'red' : hours >= 24 ? 'orange' : 'green');
const ageText = (hours: number) =>
  hours < 24 ? `${hours} 小时` : `${Math.floor(hours / 24)} 天 ${hours % 24} 小时`;

interface Filters {
  keyword?: string;
  status?: AfterSaleStatus;
  kind?: AfterSaleKind;
  scope?: 'open' | 'all';
  siteId?: number;
  current?: number;
}

/** The after-sales queue of the operator's sites: open cases first, the longest waiting on top. */
export function AfterSalesPage() {
  const { siteId } = useSession();
  const action = useRef<ActionType>(null);
  const [open, setOpen] = useState<QueueCase>();
  return (
    <>
      <ProTable<QueueCase, Filters>
        headerTitle="售后队列"
        rowKey="afterSaleNo"
        actionRef={action}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '没有符合条件的售后单' }}
        form={searchForm({ initialValues: { scope: 'open' } })}
        request={(p) =>
          pageOf(api.cases, {
            siteId: p.siteId,
            keyword: p.keyword?.trim() || undefined,
            status: p.status,
            kind: p.kind,
            openOnly: p.scope !== 'all',
            pageNum: p.current,
          })
        }
        columns={[
          { title: '单号', dataIndex: 'keyword', hideInTable: true, tooltip: '售后单号或订单号' },
          {
            title: '范围',
            dataIndex: 'scope',
            hideInTable: true,
            valueEnum: { open: { text: '进行中' }, all: { text: '全部' } },
          },
          { title: '售后单号', dataIndex: 'afterSaleNo', search: false, copyable: true },
          { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
          { title: '商品', dataIndex: 'name', search: false, ellipsis: true },
          { title: '数量', dataIndex: 'qty', search: false, width: 60 },
          {
            title: '类型',
            dataIndex: 'kind',
            valueEnum: enumOf(AFTER_SALE_KIND_LABEL),
            render: (_, r) => r.kindName,
          },
          {
            title: '状态',
            dataIndex: 'status',
            valueEnum: enumOf(AFTER_SALE_STATUS_LABEL),
            render: (_, r) => (
              <Space size={4}>
                <Tag>{r.statusName}</Tag>
                {r.proposalPending ? <Tag color="orange">待财务复核</Tag> : null}
              </Space>
            ),
          },
          {
            title: '已等待',
            dataIndex: 'waitingHours',
            search: false,
            render: (_, r) => <Tag color={ageColor(r.waitingHours)}>{ageText(r.waitingHours)}</Tag>,
          },
          { title: '申请时间', dataIndex: 'createTime', search: false, render: (_, r) => time(r.createTime) },
          {
            title: '操作',
            valueType: 'option',
            render: (_, r) => [
              <Button key="open" type="link" onClick={() => setOpen(r)}>
                处理
              </Button>,
            ],
          },
        ]}
      />
      {open ? (
        <CaseDrawer
          caseRef={{ siteId: open.siteId, afterSaleNo: open.afterSaleNo }}
          onClose={() => setOpen(undefined)}
          onChanged={() => action.current?.reload()}
        />
      ) : null}
    </>
  );
}
