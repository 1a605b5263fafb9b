import { type ActionType, ProDescriptions, ProTable } from '@ant-design/pro-components';
import {
  type AdminMerchantApplication,
  adminMerchantApi as api,
  MERCHANT_STATUS,
  MERCHANT_STATUS_LABEL,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Drawer, Empty, Image, Space, Spin, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { call, fileUrl, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { enumOf, time } from '../../format';
import { useSession } from '../../session';
import { TextAction } from '../TextAction';

const STATUS_COLOR: Record<number, string> = { 0: 'orange', 1: 'green', 2: 'red' };
const StatusTag = ({ a }: { a: AdminMerchantApplication }) => (
  <Tag color={STATUS_COLOR[a.status]}>{a.statusText}</Tag>
);

interface Filters {
  keyword?: string;
  status?: string;
  siteId?: number;
  current?: number;
}

/** The licence picture, fetched with the operator's token (licences are not public). */
function Licence({ a }: { a: AdminMerchantApplication }) {
  const picture = useQuery({
    queryKey: ['merchant-licence', a.siteId, a.applyId],
    queryFn: () => fileUrl(api.licence, { siteId: a.siteId, applyId: a.applyId }),
    enabled: a.hasLicence,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  useEffect(() => () => (picture.data ? URL.revokeObjectURL(picture.data) : undefined), [picture.data]);
  if (!a.hasLicence || picture.isError) return <Empty description="未上传营业执照图片" />;
  if (!picture.data) return <Spin tip="加载中" />;
  return <Image src={picture.data} alt="营业执照" width={320} data-testid="licence-picture" />;
}

/** One application: what the shopper sent, the licence, and the decision for a pending one. */
function ApplicationDrawer({
  a,
  onClose,
  onDecided,
}: {
  a: AdminMerchantApplication;
  onClose: () => void;
  onDecided: (a: AdminMerchantApplication) => void;
}) {
  const { can } = useSession();
  const { message } = App.useApp();
  const decide = async (status: 1 | 2, reason: string) => {
    try {
      const decided = await call(api.decide, { siteId: a.siteId, applyId: a.applyId, status, reason });
      message.success(status === 1 ? '已通过' : '已驳回');
      onDecided(decided);
    } catch (e) {
      message.error((e as Error).message);
      throw e;
    }
  };
  const pending = a.status === MERCHANT_STATUS.pending && can('sites:manage', a.siteId);
  return (
    <Drawer
      open
      width={640}
      title={`入驻申请 #${a.applyId}：${a.shopName}`}
      onClose={onClose}
      extra={
        pending ? (
          <Space>
            <TextAction label="通过" title="审核通过" field="审核意见" onSubmit={(r) => decide(1, r)} />
            <TextAction
              label="不通过"
              title="审核不通过"
              field="原因"
              danger
              onSubmit={(r) => decide(2, r)}
            />
          </Space>
        ) : null
      }
    >
      <ProDescriptions<AdminMerchantApplication>
        column={1}
        dataSource={a}
        columns={[
          { title: '状态', render: () => <StatusTag a={a} /> },
          ...(a.rejectReason ? [{ title: '不通过原因', dataIndex: 'rejectReason' }] : []),
          { title: '站点', dataIndex: 'siteId' },
          { title: '店铺名称', dataIndex: 'shopName' },
          { title: '公司名称', dataIndex: 'companyName' },
          { title: '统一社会信用代码', dataIndex: 'creditCode', copyable: true },
          { title: '主营类目', dataIndex: 'mainCategory' },
          { title: '联系人', dataIndex: 'contactName' },
          { title: '手机号', dataIndex: 'phone' },
          { title: '会员 ID', render: () => a.memberId ?? '未登录提交' },
          { title: '店铺简介', dataIndex: 'intro' },
          { title: '申请时间', render: () => time(a.createdAt) },
        ]}
      />
      <h4>营业执照</h4>
      <Licence a={a} />
    </Drawer>
  );
}

/** Merchant applications of the operator's sites: pending first to decide, any status to look up. */
export function MerchantsPage() {
  const { siteId } = useSession();
  const action = useRef<ActionType>(null);
  const [open, setOpen] = useState<AdminMerchantApplication>();
  return (
    <>
      <ProTable<AdminMerchantApplication, Filters>
        headerTitle="商家入驻申请"
        rowKey="applyId"
        actionRef={action}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="没有符合条件的入驻申请" /> }}
        form={searchForm({ initialValues: { status: String(MERCHANT_STATUS.pending) } })}
        request={(p) =>
          pageOf(api.applications, {
            siteId: p.siteId,
            keyword: p.keyword?.trim() || undefined,
            status: p.status === undefined || p.status === '' ? undefined : (Number(p.status) as 0 | 1 | 2),
            pageNum: p.current,
          })
        }
        columns={[
          {
            title: '关键字',
            dataIndex: 'keyword',
            hideInTable: true,
            tooltip: '店铺、公司、联系人、手机号或信用代码',
          },
          { title: '编号', dataIndex: 'applyId', search: false, width: 70 },
          { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
          { title: '店铺名称', dataIndex: 'shopName', search: false, ellipsis: true },
          { title: '公司名称', dataIndex: 'companyName', search: false, ellipsis: true },
          { title: '联系人', dataIndex: 'contactName', search: false },
          { title: '手机号', dataIndex: 'phone', search: false },
          {
            title: '状态',
            dataIndex: 'status',
            valueEnum: enumOf(MERCHANT_STATUS_LABEL),
            render: (_, r) => <StatusTag a={r} />,
          },
          { title: '申请时间', dataIndex: 'createdAt', search: false, render: (_, r) => time(r.createdAt) },
          {
            title: '操作',
            valueType: 'option',
            render: (_, r) => [
              <Button key="open" type="link" onClick={() => setOpen(r)}>
                {r.status === MERCHANT_STATUS.pending ? '审核' : '查看'}
              </Button>,
            ],
          },
        ]}
      />
      {open ? (
        <ApplicationDrawer
          a={open}
          onClose={() => setOpen(undefined)}
          onDecided={(decided) => {
            setOpen(decided);
            action.current?.reload();
          }}
        />
      ) : null}
    </>
  );
}
