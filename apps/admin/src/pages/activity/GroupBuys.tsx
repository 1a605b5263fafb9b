import {
  type ActionType,
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormSwitch,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminGroupActivity,
  type AdminGroupTeam,
  adminGroupApi,
  GROUP_TEAM_STATUS_NAME,
  type SaveGroupActivityBody,
} from '@sitemall/contract';
import { Alert, Button, Input, Modal, Space, Table, Tabs, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { chinaNow, enumOf, instantOf, minute, pickerOf, toFen, yuan } from '../../format';
import { useSession } from '../../session';
import { formTrigger } from '../form-trigger';
import { useWrite } from '../write';

const PHASE: Record<number, { text: string; color: string }> = {
  [-1]: { text: '未开始', color: 'default' },
  0: { text: '进行中', color: 'green' },
  1: { text: '已结束', color: 'default' },
};
const TEAM_COLOR: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'default' };
const PLACE: Record<string, string> = {
  reserved: '待支付',
  paid: '已支付',
  released: '已释放',
  refunded: '已退款',
};

interface ActivityForm {
  name: string;
  specificationId: number;
  priceYuan: number;
  teamSize: number;
  teamHours: number;
  memberLimit: number;
  virtualFill: boolean;
  window: [Dayjs | string, Dayjs | string];
}

/** Create (no activity) or edit an activity of the site. */
function ActivityFormModal({
  siteId,
  activity,
  onDone,
}: {
  siteId: number;
  activity?: AdminGroupActivity;
  onDone: () => void;
}) {
  const write = useWrite();
  return (
    <ModalForm<ActivityForm>
      title={activity ? `编辑拼团活动 #${activity.id}` : '新建拼团活动'}
      width={560}
      trigger={formTrigger({ editing: !!activity, edit: '编辑', create: '新建拼团' })}
      modalProps={{ destroyOnClose: true }}
      initialValues={
        activity
          ? {
              ...activity,
              priceYuan: activity.price / 100,
              window: [pickerOf(activity.startAt), pickerOf(activity.endAt)],
            }
          : {
              teamSize: 2,
              teamHours: 24,
              memberLimit: 1,
              virtualFill: false,
              window: [chinaNow(), chinaNow().add(30, 'day')],
            }
      }
      onFinish={async (form) => {
        const body: SaveGroupActivityBody = {
          siteId,
          ...(activity ? { id: activity.id } : {}),
          name: form.name,
          specificationId: form.specificationId,
          price: toFen(form.priceYuan),
          teamSize: form.teamSize,
          teamHours: form.teamHours,
          memberLimit: form.memberLimit,
          virtualFill: !!form.virtualFill,
          startAt: instantOf(form.window[0]).toISOString(),
          endAt: instantOf(form.window[1]).toISOString(),
        };
        return write(() => call(adminGroupApi.saveGroupActivity, body), '已保存', onDone);
      }}
    >
      <ProFormText
        name="name"
        label="活动名称"
        rules={[{ required: true, max: 40 }]}
        placeholder="如：两人拼团"
      />
      <ProFormDigit
        name="specificationId"
        label="商品规格 ID"
        rules={[{ required: true }]}
        fieldProps={{ precision: 0, min: 1 }}
        tooltip="本站点在售的实物商品规格"
      />
      <ProFormDigit
        name="priceYuan"
        label="拼团价（元）"
        rules={[{ required: true }]}
        fieldProps={{ precision: 2, min: 0 }}
      />
      <Space size="large">
        <ProFormDigit
          name="teamSize"
          label="成团人数"
          rules={[{ required: true }]}
          fieldProps={{ min: 2, max: 50 }}
        />
        <ProFormDigit
          name="teamHours"
          label="成团时限（小时）"
          rules={[{ required: true }]}
          fieldProps={{ min: 1, max: 720 }}
        />
        <ProFormDigit
          name="memberLimit"
          label="每人限购"
          rules={[{ required: true }]}
          fieldProps={{ min: 1, max: 99 }}
        />
      </Space>
      <ProFormSwitch name="virtualFill" label="虚拟成团" tooltip="到期未满员但已有人付款时，视为拼团成功" />
      <ProFormDateTimeRangePicker name="window" label="活动时间（北京时间）" rules={[{ required: true }]} />
    </ModalForm>
  );
}

function Members({ team }: { team: AdminGroupTeam }) {
  return (
    <Table
      size="small"
      rowKey="orderNo"
      pagination={false}
      dataSource={team.members}
      columns={[
        { title: '会员', dataIndex: 'nickname' },
        { title: '会员 ID', dataIndex: 'memberId' },
        { title: '订单号', dataIndex: 'orderNo' },
        {
          title: '身份',
          dataIndex: 'isLeader',
          render: (v: boolean) => (v ? <Tag color="red">团长</Tag> : '团员'),
        },
        { title: '状态', dataIndex: 'status', render: (v: string) => PLACE[v] ?? v },
      ]}
    />
  );
}

/** 拼团: the site's group-buy activities (create, edit, end) and their teams with state and members. */
export function GroupBuysPage() {
  const { siteId: chosen, me, can } = useSession();
  const write = useWrite();
  const siteId = chosen ?? me.sites[0]?.id;
  const activities = useRef<ActionType>(null);
  const teams = useRef<ActionType>(null);
  const [tab, setTab] = useState('activities');
  const [activityId, setActivityId] = useState<number>();
  const [ending, setEnding] = useState<AdminGroupActivity>();
  const [reason, setReason] = useState('');
  const manage = siteId !== undefined && can('promotions:manage', siteId);
  if (siteId === undefined) return <Alert type="info" message="没有可管理的站点" />;

  const end = async () => {
    if (!ending) return;
    await write(
      () => call(adminGroupApi.endGroupActivity, { siteId, activityId: ending.id, reason }),
      '活动已结束',
      () => {
        setEnding(undefined);
        setReason('');
        activities.current?.reload();
      },
    );
  };

  return (
    <>
      {chosen === undefined && (
        <Alert
          style={{ marginBottom: 16 }}
          type="info"
          showIcon
          message={`当前显示站点 ${siteId}；在右上角切换站点查看其他站点的拼团`}
        />
      )}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'activities',
            label: '拼团活动',
            children: (
              <ProTable<AdminGroupActivity>
                headerTitle="拼团活动"
                rowKey="id"
                actionRef={activities}
                search={false}
                params={{ siteId }}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                locale={{ emptyText: '暂无拼团活动' }}
                request={(p) => pageOf(adminGroupApi.groupActivities, { siteId, pageNum: p.current })}
                toolBarRender={() =>
                  manage
                    ? [
                        <ActivityFormModal
                          key="new"
                          siteId={siteId}
                          onDone={() => activities.current?.reload()}
                        />,
                      ]
                    : []
                }
                columns={[
                  { title: '编号', dataIndex: 'id', width: 70 },
                  { title: '名称', dataIndex: 'name' },
                  { title: '商品', dataIndex: 'productName', ellipsis: true, width: 180 },
                  {
                    title: '拼团价 / 原价',
                    render: (_, a) => (
                      <span>
                        <strong>{yuan(a.price)}</strong> / {yuan(a.marketPrice)}
                      </span>
                    ),
                  },
                  {
                    title: '成团规则',
                    render: (_, a) =>
                      `${a.teamSize} 人 · ${a.teamHours} 小时 · 每人限购 ${a.memberLimit}${a.virtualFill ? ' · 虚拟成团' : ''}`,
                  },
                  { title: '活动时间', render: (_, a) => `${minute(a.startAt)} 至 ${minute(a.endAt)}` },
                  {
                    title: '状态',
                    render: (_, a) => <Tag color={PHASE[a.status]?.color}>{PHASE[a.status]?.text}</Tag>,
                  },
                  {
                    title: '团（进行中/成功/失败）',
                    render: (_, a) => `${a.teams.forming} / ${a.teams.succeeded} / ${a.teams.failed}`,
                  },
                  {
                    title: '操作',
                    valueType: 'option',
                    render: (_, a) => [
                      <Button
                        key="teams"
                        type="link"
                        size="small"
                        onClick={() => {
                          setActivityId(a.id);
                          setTab('teams');
                        }}
                      >
                        查看团
                      </Button>,
                      manage && (
                        <ActivityFormModal
                          key="edit"
                          siteId={siteId}
                          activity={a}
                          onDone={() => activities.current?.reload()}
                        />
                      ),
                      manage && a.status !== 1 && (
                        <Button key="end" type="link" size="small" danger onClick={() => setEnding(a)}>
                          结束
                        </Button>
                      ),
                    ],
                  },
                ]}
              />
            ),
          },
          {
            key: 'teams',
            label: '团列表',
            children: (
              <ProTable<AdminGroupTeam, { status?: number; siteId?: number; activityId?: number }>
                form={searchForm()}
                headerTitle={activityId ? `活动 #${activityId} 的团` : '全部团'}
                rowKey="teamId"
                actionRef={teams}
                params={{ siteId, activityId }}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                locale={{ emptyText: '暂无团' }}
                request={(p) =>
                  pageOf(adminGroupApi.groupTeams, {
                    siteId,
                    ...(activityId ? { activityId } : {}),
                    ...(p.status === undefined ? {} : { status: Number(p.status) }),
                    pageNum: p.current,
                  })
                }
                toolBarRender={() =>
                  activityId
                    ? [
                        <Button key="all" onClick={() => setActivityId(undefined)}>
                          查看全部团
                        </Button>,
                      ]
                    : []
                }
                expandable={{ expandedRowRender: (team) => <Members team={team} /> }}
                columns={[
                  { title: '团号', dataIndex: 'teamId', search: false, width: 80 },
                  { title: '活动', dataIndex: 'activityName', search: false },
                  {
                    title: '状态',
                    dataIndex: 'status',
                    valueEnum: enumOf(GROUP_TEAM_STATUS_NAME),
                    render: (_, team) => <Tag color={TEAM_COLOR[team.status]}>{team.statusName}</Tag>,
                  },
                  {
                    title: '参团 / 成团人数',
                    search: false,
                    render: (_, team) => `${team.joined} / ${team.size}`,
                  },
                  { title: '已付款', dataIndex: 'paid', search: false, width: 80 },
                  { title: '开团时间', search: false, render: (_, team) => minute(team.createdAt) },
                  { title: '截止时间', search: false, render: (_, team) => minute(team.expiresAt) },
                  { title: '结算时间', search: false, render: (_, team) => minute(team.settledAt) },
                ]}
              />
            ),
          },
        ]}
      />
      <Modal
        title={`结束拼团活动 #${ending?.id ?? ''}`}
        open={!!ending}
        okText="结束活动"
        okButtonProps={{ danger: true, disabled: !reason.trim() }}
        onOk={() => void end()}
        onCancel={() => setEnding(undefined)}
      >
        <p>结束后不能再开团；进行中的团到期后照常结算（未成团的自动退款）。</p>
        <Input.TextArea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={200}
          placeholder="请填写结束原因（记入审计日志）"
          aria-label="结束原因"
        />
      </Modal>
    </>
  );
}
