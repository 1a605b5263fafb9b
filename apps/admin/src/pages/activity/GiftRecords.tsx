import { type ProColumns, ProTable } from '@ant-design/pro-components';
import { type AdminGift, adminActivityApi, GIFT_STATUS_LABEL, PRIZE_KIND_LABEL } from '@sitemall/contract';
import { Button, Tag } from 'antd';
import { useRef } from 'react';
import { callFile, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { enumOf } from '../../format';
import { useWrite } from '../write';

export const kindLabel = (kind: string) => PRIZE_KIND_LABEL[kind as keyof typeof PRIZE_KIND_LABEL] ?? kind;
const GIFT_COLOR: Record<number, string> = { 0: 'orange', 1: 'green', [-1]: 'default' };

interface GiftFilters {
  activityId?: string;
  status?: string;
  phone?: string;
}

/** The query a filter form means, as the list and the export take it. */
const queryOf = (siteId: number, fixedActivity: number | undefined, f: GiftFilters) => ({
  siteId,
  activityId: fixedActivity ?? (f.activityId ? Number(f.activityId) : undefined),
  status: f.status === undefined || f.status === '' ? undefined : Number(f.status),
  phone: f.phone?.trim() || undefined,
});

/**
 * Gift records (status 0 待领取, 1 已领取, -1 已过期) of one activity, or of a site's activities
 * with an activity filter; by status and member phone, with the delivery sheet (xlsx) of the
 * physical prizes the filters show.
 */
export function GiftRecords({
  siteId,
  activity,
  activities = [],
}: {
  siteId: number;
  /** One activity's gifts (its code names the sheet); absent: the site's, filtered by activity. */
  activity?: { id: number; code: string };
  activities?: { value: number; label: string }[];
}) {
  const write = useWrite();
  const filters = useRef<GiftFilters>({});
  const columns: ProColumns<AdminGift>[] = [
    { title: '记录号', dataIndex: 'id', width: 80, search: false },
    ...(activity
      ? []
      : [
          {
            title: '活动',
            dataIndex: 'activityId',
            valueType: 'select',
            fieldProps: { options: activities, placeholder: '全部活动' },
            render: (_, g) => `${g.activityName}（${g.activityCode}）`,
          } satisfies ProColumns<AdminGift>,
        ]),
    { title: '会员', dataIndex: 'member', search: false },
    {
      title: '会员手机号',
      dataIndex: 'phone',
      hideInTable: true,
      formItemProps: { rules: [{ pattern: /^1\d{10}$/, message: '11 位手机号' }] },
    },
    { title: '奖品', dataIndex: 'prizeName', search: false },
    { title: '类型', dataIndex: 'kind', search: false, width: 70, render: (_, g) => kindLabel(g.kind) },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      valueEnum: enumOf(GIFT_STATUS_LABEL),
      render: (_, g) => <Tag color={GIFT_COLOR[g.status]}>{g.statusName}</Tag>,
    },
    {
      title: '收货信息',
      dataIndex: 'address',
      search: false,
      render: (_, g) =>
        g.address ? (
          <span style={{ fontSize: 12 }}>
            {g.address.consignee} {g.address.phone}
            <br />
            {g.address.address}
          </span>
        ) : (
          '-'
        ),
    },
    {
      title: '领取截止',
      dataIndex: 'claimDeadline',
      search: false,
      render: (_, g) => g.claimDeadline ?? '-',
    },
    { title: '中奖时间', dataIndex: 'createdAt', search: false },
  ];
  return (
    <ProTable<AdminGift, GiftFilters>
      form={searchForm()}
      rowKey="id"
      options={false}
      size="small"
      headerTitle="中奖与发货"
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无中奖记录' }}
      search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false }}
      request={(p) => {
        filters.current = p;
        return pageOf(adminActivityApi.gifts, { ...queryOf(siteId, activity?.id, p), pageNum: p.current });
      }}
      toolBarRender={() => [
        <Button
          key="export"
          onClick={() =>
            write(
              () =>
                callFile(
                  adminActivityApi.exportGifts,
                  queryOf(siteId, activity?.id, filters.current),
                  `gifts-${activity?.code ?? `site${siteId}`}.xlsx`,
                ),
              '已导出发货单',
            )
          }
        >
          导出发货单（xlsx）
        </Button>,
      ]}
      columns={columns}
    />
  );
}
