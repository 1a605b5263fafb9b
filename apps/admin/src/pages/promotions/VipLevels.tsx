import {
  type ActionType,
  ModalForm,
  ProFormDatePicker,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminMemberVip,
  type AdminVipLevel,
  adminPromotionsApi as promo,
  VIP_THRESHOLD_LABEL,
} from '@sitemall/contract';
import { App, Button, Card, Descriptions, Empty, Input, Select, Space, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { day, minute, optionsOf } from '../../format';
import { useSession, useSitesWith } from '../../session';
import { useRun, useWrite } from '../write';
import { ReasonAction, ReasonField, SiteField } from './shared';

const thresholdOptions = optionsOf(VIP_THRESHOLD_LABEL);

function CreateLevelForm({ onDone }: { onDone: () => void }) {
  const write = useWrite();
  return (
    <ModalForm<{ siteId: number; rank: number; name: string; discountPct: number; thresholdType: 'manual' }>
      name="createVipLevel"
      title="新建会员等级"
      width={480}
      trigger={<Button type="primary">新建等级</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={{ thresholdType: 'manual' }}
      onFinish={async (f) => {
        return write(() => call(promo.createVipLevel, f), '已创建', onDone);
      }}
    >
      <SiteField />
      <ProFormDigit
        name="rank"
        label="等级序号"
        min={1}
        max={99}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ProFormText name="name" label="等级名称" rules={[{ required: true, max: 20 }]} />
      <ProFormDigit
        name="discountPct"
        label="会员折扣（减 %）"
        min={0}
        max={99}
        fieldProps={{ precision: 0, addonAfter: '%' }}
        rules={[{ required: true }]}
      />
      <ProFormSelect name="thresholdType" label="获得方式" options={thresholdOptions} />
    </ModalForm>
  );
}

/** One member's level: look up by id or phone, set or remove it with a reason, see the change log. */
function MemberLevel() {
  const { message } = App.useApp();
  const sites = useSitesWith('promotions:view');
  const { can } = useSession();
  const [siteId, setSiteId] = useState<number | undefined>(sites.initial);
  const [account, setAccount] = useState('');
  const [found, setFound] = useState<AdminMemberVip>();
  const [levels, setLevels] = useState<AdminVipLevel[]>([]);
  const look = async () => {
    if (!siteId || !account.trim()) return;
    try {
      const [vip, page] = await Promise.all([
        call(promo.memberVip, { siteId, member: account.trim() }),
        call(promo.vipLevels, { siteId }),
      ]);
      setFound(vip);
      setLevels(page.list);
    } catch (e) {
      setFound(undefined);
      message.error((e as Error).message);
    }
  };
  const levelName = (id: number | null) =>
    id === null ? '无' : (levels.find((l) => l.id === id)?.name ?? String(id));
  return (
    <Card title="会员等级设置" size="small" style={{ marginTop: 16 }}>
      <Space wrap>
        <Select
          aria-label="站点"
          style={{ width: 200 }}
          value={siteId}
          options={sites.options}
          onChange={setSiteId}
        />
        <Input.Search
          placeholder="会员 id 或手机号"
          style={{ width: 260 }}
          value={account}
          onChange={(e) => setAccount(e.target.value)}
          onSearch={look}
          enterButton="查询"
        />
      </Space>
      {found ? (
        <>
          <Descriptions size="small" column={4} style={{ marginTop: 16 }}>
            <Descriptions.Item label="会员">{`${found.member}（${found.memberId}）`}</Descriptions.Item>
            <Descriptions.Item label="当前等级">
              {found.levelId ? <Tag color="gold">{found.levelName}</Tag> : '无'}
            </Descriptions.Item>
            <Descriptions.Item label="折扣">
              {found.discountPct ? `减 ${found.discountPct}%` : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="到期">
              {found.expiresAt ? day(found.expiresAt) : '长期'}
            </Descriptions.Item>
          </Descriptions>
          {can('promotions:manage', found.siteId) ? (
            <ModalForm<{ levelId: number; expiresOn?: string; reason: string }>
              name="setMemberVip"
              title="设置会员等级"
              width={460}
              trigger={<Button type="primary">设置等级</Button>}
              modalProps={{ destroyOnClose: true }}
              initialValues={{ levelId: found.levelId ?? 0 }}
              onFinish={async (f) => {
                try {
                  const next = await call(promo.setMemberVip, {
                    siteId: found.siteId,
                    member: String(found.memberId),
                    levelId: f.levelId || null,
                    expiresOn: f.expiresOn || undefined,
                    reason: f.reason,
                  });
                  setFound(next);
                  message.success('已设置');
                  return true;
                } catch (e) {
                  message.error((e as Error).message);
                  return false;
                }
              }}
            >
              <ProFormRadio.Group
                name="levelId"
                label="等级"
                options={[
                  { value: 0, label: '无等级' },
                  ...levels.map((l) => ({ value: l.id, label: `${l.name}（减${l.discountPct}%）` })),
                ]}
              />
              <ProFormDatePicker name="expiresOn" label="有效至" fieldProps={{ format: 'YYYY-MM-DD' }} />
              <ReasonField />
            </ModalForm>
          ) : null}
          <Table
            style={{ marginTop: 16 }}
            size="small"
            rowKey="at"
            pagination={false}
            locale={{ emptyText: '暂无等级变更记录' }}
            dataSource={found.log}
            columns={[
              {
                title: '时间',
                dataIndex: 'at',
                render: (at: string) => minute(at),
              },
              { title: '原等级', dataIndex: 'fromLevel', render: levelName },
              { title: '新等级', dataIndex: 'toLevel', render: levelName },
              { title: '原因', dataIndex: 'reason' },
              { title: '操作人', dataIndex: 'actor' },
            ]}
          />
        </>
      ) : (
        <Empty description="输入会员 id 或手机号查询" style={{ marginTop: 16 }} />
      )}
    </Card>
  );
}

/** VIP levels of the operator's sites with their discount and members; a member's level below. */
export function VipLevels() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const reload = () => action.current?.reload();
  const run = useRun(reload);
  return (
    <>
      <ProTable<AdminVipLevel>
        headerTitle="会员等级"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        search={false}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无会员等级' }}
        request={(p) => pageOf(promo.vipLevels, { siteId: p.siteId, pageNum: p.current })}
        toolBarRender={() =>
          can('promotions:manage') ? [<CreateLevelForm key="new" onDone={reload} />] : []
        }
        columns={[
          { title: '站点', dataIndex: 'siteId', width: 70 },
          { title: '序号', dataIndex: 'rank', width: 70 },
          { title: '名称', dataIndex: 'name' },
          { title: '会员折扣', dataIndex: 'discountPct', render: (_, l) => `减 ${l.discountPct}%` },
          {
            title: '获得方式',
            dataIndex: 'thresholdType',
            render: (_, l) =>
              VIP_THRESHOLD_LABEL[l.thresholdType as keyof typeof VIP_THRESHOLD_LABEL] ?? l.thresholdType,
          },
          { title: '会员数', dataIndex: 'members' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (_, l) => (l.status === 'active' ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            title: '操作',
            valueType: 'option',
            render: (_, l) =>
              can('promotions:manage', l.siteId)
                ? [
                    <ReasonAction<{ name: string; discountPct: number; status: 'active' | 'inactive' }>
                      key="edit"
                      label="编辑"
                      title={`编辑会员等级：${l.name}`}
                      initialValues={{
                        name: l.name,
                        discountPct: l.discountPct,
                        status: l.status as 'active',
                      }}
                      onSubmit={(f) =>
                        run(
                          () => call(promo.updateVipLevel, { siteId: l.siteId, levelId: l.id, ...f }),
                          '已保存',
                        )
                      }
                    >
                      <ProFormText name="name" label="名称" rules={[{ required: true, max: 20 }]} />
                      <ProFormDigit
                        name="discountPct"
                        label="会员折扣（减 %）"
                        min={0}
                        max={99}
                        fieldProps={{ precision: 0 }}
                        rules={[{ required: true }]}
                      />
                      <ProFormRadio.Group
                        name="status"
                        label="状态"
                        options={[
                          { value: 'active', label: '启用' },
                          { value: 'inactive', label: '停用' },
                        ]}
                      />
                    </ReasonAction>,
                  ]
                : [],
          },
        ]}
      />
      <MemberLevel />
    </>
  );
}
