import {
  type ActionType,
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminBargainActivity,
  type AdminBargainRecord,
  adminBargainApi,
  BARGAIN_STATUS_LABEL,
  type SaveBargainActivityBody,
} from '@sitemall/contract';
import { Button, Tabs, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { enumOf, instantOf, minute, pickerOf, toFen, yuan } from '../../format';
import { useSession } from '../../session';
import { formTrigger } from '../form-trigger';
import { useWrite } from '../write';

const PHASE: Record<number, { text: string; color: string }> = {
  [-1]: { text: '未开始', color: 'default' },
  0: { text: '进行中', color: 'green' },
  1: { text: '已结束', color: 'red' },
};
const RECORD_COLOR: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'default', 4: 'gold' };

interface FormValues {
  siteId: number;
  name: string;
  specificationId: number;
  floorYuan: number;
  helpMax: number;
  cutMinYuan: number;
  cutMaxYuan: number;
  helperDailyQuota: number;
  hours: number;
  window: [string, string];
}

/** Create (no `activity`) or edit an activity; amounts are typed in yuan and sent in fen. */
function ActivityForm({ activity, onDone }: { activity?: AdminBargainActivity; onDone: () => void }) {
  const write = useWrite();
  const { me, siteId, can } = useSession();
  const sites = me.sites.filter((s) => can('promotions:manage', s.id));
  return (
    <ModalForm<FormValues>
      title={activity ? `修改砍价活动：${activity.name}` : '新建砍价活动'}
      width={560}
      trigger={formTrigger({ editing: !!activity, edit: '修改', create: '新建砍价活动' })}
      modalProps={{ destroyOnClose: true }}
      initialValues={
        activity
          ? {
              siteId: activity.siteId,
              name: activity.name,
              specificationId: activity.specificationId,
              floorYuan: activity.floorPrice / 100,
              helpMax: activity.helpMax,
              cutMinYuan: activity.cutMin / 100,
              cutMaxYuan: activity.cutMax / 100,
              helperDailyQuota: activity.helperDailyQuota,
              hours: activity.hours,
              window: [pickerOf(activity.startAt), pickerOf(activity.endAt)],
            }
          : { siteId: siteId ?? sites[0]?.id, helpMax: 3, helperDailyQuota: 3, hours: 24 }
      }
      onFinish={async (v) => {
        const body: SaveBargainActivityBody = {
          ...(activity ? { id: activity.id } : {}),
          siteId: v.siteId,
          name: v.name,
          specificationId: v.specificationId,
          floorPrice: toFen(v.floorYuan),
          helpMax: v.helpMax,
          cutMin: toFen(v.cutMinYuan),
          cutMax: toFen(v.cutMaxYuan),
          helperDailyQuota: v.helperDailyQuota,
          hours: v.hours,
          startAt: instantOf(v.window[0]).getTime(),
          endAt: instantOf(v.window[1]).getTime(),
        };
        return write(() => call(adminBargainApi.saveBargainActivity, body), '已保存', onDone);
      }}
    >
      <ProFormSelect
        name="siteId"
        label="站点"
        disabled={!!activity}
        options={sites.map((s) => ({ value: s.id, label: `${s.siteName}（${s.id}）` }))}
        rules={[{ required: true, message: '请选择站点' }]}
      />
      <ProFormText name="name" label="活动名称" rules={[{ required: true, max: 60 }]} />
      <ProFormDigit
        name="specificationId"
        label="商品规格 ID"
        min={1}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true, message: '请填写该站点在售商品的规格 ID' }]}
      />
      <ProFormDigit
        name="floorYuan"
        label="底价（元）"
        min={0}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="helpMax"
        label="助力人数（达到即成功）"
        min={1}
        max={100}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="cutMinYuan"
        label="单次砍价下限（元）"
        min={0.01}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="cutMaxYuan"
        label="单次砍价上限（元）"
        min={0.01}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="helperDailyQuota"
        label="每人每天可帮砍次数"
        min={1}
        max={100}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="hours"
        label="砍价有效时长（小时）"
        min={1}
        max={720}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ProFormDateTimeRangePicker
        name="window"
        label="活动时间（北京时间）"
        rules={[{ required: true, message: '请选择活动时间' }]}
      />
    </ModalForm>
  );
}

function EndForm({ activity, onDone }: { activity: AdminBargainActivity; onDone: () => void }) {
  const write = useWrite();
  return (
    <ModalForm<{ reason: string }>
      title={`结束砍价活动：${activity.name}`}
      width={460}
      trigger={
        <Button type="link" size="small" danger>
          结束
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      onFinish={async ({ reason }) => {
        return write(
          () =>
            call(adminBargainApi.endBargainActivity, {
              siteId: activity.siteId,
              id: activity.id,
              reason,
            }),
          '活动已结束',
          onDone,
        );
      }}
    >
      <p>结束后会员不能再发起或帮砍，进行中和未下单的砍价将失败。</p>
      <ProFormTextArea name="reason" label="原因" fieldProps={{ maxLength: 200 }} />
    </ModalForm>
  );
}

function ActivitiesTable({ onRecords }: { onRecords: (a: AdminBargainActivity) => void }) {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const reload = () => void action.current?.reload();
  return (
    <ProTable<AdminBargainActivity, { siteId?: number; current?: number }>
      headerTitle="砍价活动"
      rowKey="id"
      scroll={{ x: 'max-content' }}
      actionRef={action}
      search={false}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '还没有砍价活动' }}
      toolBarRender={() =>
        can('promotions:manage', siteId) ? [<ActivityForm key="new" onDone={reload} />] : []
      }
      request={(p) => pageOf(adminBargainApi.bargainActivities, { siteId: p.siteId, pageNum: p.current })}
      columns={[
        { title: 'ID', dataIndex: 'id', width: 60 },
        { title: '站点', dataIndex: 'siteId', width: 70 },
        { title: '活动名称', dataIndex: 'name' },
        { title: '商品', dataIndex: 'productName', ellipsis: true },
        {
          title: '售价 / 底价',
          dataIndex: 'price',
          render: (_, r) => `${yuan(r.price)} / ${yuan(r.floorPrice)}`,
        },
        { title: '助力人数', dataIndex: 'helpMax', width: 90 },
        { title: '单次砍价', dataIndex: 'cutMin', render: (_, r) => `${yuan(r.cutMin)} ~ ${yuan(r.cutMax)}` },
        {
          title: '活动时间',
          dataIndex: 'startAt',
          render: (_, r) => `${minute(r.startAt)} 至 ${minute(r.endAt)}`,
        },
        {
          title: '状态',
          dataIndex: 'status',
          width: 90,
          render: (_, r) => <Tag color={PHASE[r.status]?.color}>{PHASE[r.status]?.text}</Tag>,
        },
        {
          title: '发起 / 成功',
          dataIndex: 'bargains',
          width: 100,
          render: (_, r) => `${r.bargains} / ${r.succeeded}`,
        },
        {
          title: '操作',
          valueType: 'option',
          render: (_, r) => [
            <Button key="records" type="link" size="small" onClick={() => onRecords(r)}>
              砍价记录
            </Button>,
            ...(r.enabled && can('promotions:manage', r.siteId)
              ? [
                  <ActivityForm key="edit" activity={r} onDone={reload} />,
                  <EndForm key="end" activity={r} onDone={reload} />,
                ]
              : []),
          ],
        },
      ]}
    />
  );
}

function RecordsTable({ activity }: { activity?: AdminBargainActivity }) {
  const { siteId } = useSession();
  return (
    <ProTable<AdminBargainRecord, { siteId?: number; activityId?: number; status?: string; current?: number }>
      form={searchForm()}
      headerTitle={activity ? `砍价记录：${activity.name}` : '砍价记录'}
      rowKey="id"
      scroll={{ x: 'max-content' }}
      params={{ siteId, activityId: activity?.id }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '还没有会员发起砍价' }}
      request={(p) =>
        pageOf(adminBargainApi.bargainRecords, {
          siteId: p.siteId,
          activityId: p.activityId,
          status: p.status === undefined ? undefined : Number(p.status),
          pageNum: p.current,
        })
      }
      columns={[
        { title: 'ID', dataIndex: 'id', width: 60, search: false },
        { title: '活动', dataIndex: 'activityName', search: false },
        { title: '会员', dataIndex: 'memberName', search: false },
        {
          title: '价格',
          dataIndex: 'price',
          search: false,
          render: (_, r) => `${yuan(r.price)}（原价 ${yuan(r.startPrice)}，底价 ${yuan(r.floorPrice)}）`,
        },
        {
          title: '助力',
          dataIndex: 'helpCount',
          search: false,
          render: (_, r) => `${r.helpCount} / ${r.helpMax}`,
        },
        {
          title: '状态',
          dataIndex: 'status',
          valueEnum: enumOf(BARGAIN_STATUS_LABEL),
          render: (_, r) => <Tag color={RECORD_COLOR[r.status]}>{r.statusName}</Tag>,
        },
        { title: '订单号', dataIndex: 'orderNo', search: false, render: (_, r) => r.orderNo ?? '-' },
        { title: '发起时间', dataIndex: 'createTime', search: false, render: (_, r) => minute(r.createTime) },
        { title: '截止时间', dataIndex: 'expireTime', search: false, render: (_, r) => minute(r.expireTime) },
      ]}
    />
  );
}

/** /activity/bargains: the bargain activities of the operator's sites and the members' bargains. */
export function BargainsPage() {
  const [tab, setTab] = useState('activities');
  const [activity, setActivity] = useState<AdminBargainActivity>();
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => {
        setTab(key);
        if (key === 'activities') setActivity(undefined);
      }}
      items={[
        {
          key: 'activities',
          label: '砍价活动',
          children: (
            <ActivitiesTable
              onRecords={(a) => {
                setActivity(a);
                setTab('records');
              }}
            />
          ),
        },
        {
          key: 'records',
          label: '砍价记录',
          children: <RecordsTable key={activity?.id ?? 0} activity={activity} />,
        },
      ]}
    />
  );
}
