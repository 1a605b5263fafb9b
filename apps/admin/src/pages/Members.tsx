import { type ActionType, ProDescriptions, ProTable } from '@ant-design/pro-components';
import { type AdminMember, type AdminMemberSession, adminApi } from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Drawer, Space, Spin, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../api';
import { searchForm } from '../columns';
import { day, minute, time, yuan } from '../format';
import { useSession } from '../session';
import { IssueOneForm } from './issue-forms';
import { TextAction } from './TextAction';
import { useWrite } from './write';

const STATUS = { 1: { text: '正常', status: 'Success' }, 0: { text: '已冻结', status: 'Error' } } as const;

const REVOKE_LABEL: Record<string, string> = {
  logout: '会员退出',
  superseded: '在别处登录',
  password: '修改密码',
  disabled: '冻结下线',
  operator: '运营强制下线',
};

const sessionState = (s: AdminMemberSession) =>
  s.active ? (
    <Badge status="success" text="在线" />
  ) : s.revokedAt ? (
    <Badge status="default" text={`已结束（${REVOKE_LABEL[s.revokeReason] ?? s.revokeReason}）`} />
  ) : (
    <Badge status="default" text="已过期" />
  );

/** 冻结 for a member in good standing, 解冻 for a frozen one: what each asks and says when done. */
const STATUS_ACTIONS = {
  1: {
    to: 0,
    label: '冻结会员',
    title: '冻结后会员立即下线，且无法再登录',
    field: '冻结原因',
    done: '会员已冻结',
  },
  0: { to: 1, label: '解冻会员', title: '解冻后会员可重新登录', field: '解冻原因', done: '会员已解冻' },
} as const;

function StatusAction({
  status,
  onSubmit,
}: {
  status: number;
  onSubmit: (status: 0 | 1, reason: string, done: string) => Promise<unknown>;
}) {
  const action = STATUS_ACTIONS[status === 1 ? 1 : 0];
  return (
    <TextAction
      label={action.label}
      title={action.title}
      field={action.field}
      danger={action.to === 0}
      onSubmit={(reason) => onSubmit(action.to, reason, action.done)}
    />
  );
}

/** A member's profile and login sessions; 强制下线 and 冻结/解冻 with a reason (audited). */
function MemberDrawer({
  member,
  onClose,
  onChanged,
}: {
  member: AdminMember;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { can } = useSession();
  const write = useWrite();
  const queryClient = useQueryClient();
  const key = ['member', member.siteId, member.id];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => call(adminApi.memberDetail, { siteId: member.siteId, memberId: member.id }),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    onChanged();
  };
  const d = detail.data;
  const manage = can('members:manage', member.siteId);
  const ref = { siteId: member.siteId, memberId: member.id };
  return (
    <Drawer
      open
      width={820}
      title={`会员详情：${member.phone || member.username}（站点 ${member.siteId}）`}
      onClose={onClose}
      destroyOnClose
      extra={
        d && manage ? (
          <Space>
            <TextAction
              label="强制下线"
              title="结束该会员的全部登录会话"
              field="操作原因"
              onSubmit={(reason) =>
                write(() => call(adminApi.revokeMemberSessions, { ...ref, reason }), '会员已下线', refresh)
              }
            />
            <StatusAction
              status={d.status}
              onSubmit={(status, reason, done) =>
                write(() => call(adminApi.setMemberStatus, { ...ref, status, reason }), done, refresh)
              }
            />
          </Space>
        ) : null
      }
    >
      {!d ? (
        <Spin />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <ProDescriptions column={2} bordered size="small">
            <ProDescriptions.Item label="会员 ID">{d.id}</ProDescriptions.Item>
            <ProDescriptions.Item label="站点">{d.siteId}</ProDescriptions.Item>
            <ProDescriptions.Item label="手机号">{d.phone || '-'}</ProDescriptions.Item>
            <ProDescriptions.Item label="用户名">{d.username || '-'}</ProDescriptions.Item>
            <ProDescriptions.Item label="状态">
              {d.status === 1 ? <Tag color="green">正常</Tag> : <Tag color="red">已冻结</Tag>}
            </ProDescriptions.Item>
            <ProDescriptions.Item label="积分余额">{yuan(d.balance)}</ProDescriptions.Item>
            <ProDescriptions.Item label="注册时间" span={2}>
              {time(d.createdAt)}
            </ProDescriptions.Item>
          </ProDescriptions>
          <Table<AdminMemberSession>
            title={() => '登录会话（最近 20 次）'}
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={d.sessions}
            locale={{ emptyText: '该会员还没有登录过' }}
            columns={[
              { title: '登录时间', dataIndex: 'createdAt', render: (v: string) => time(v) },
              { title: '最近活动', dataIndex: 'lastSeenAt', render: (v: string) => time(v) },
              { title: '最迟到期', dataIndex: 'expiresAt', render: (v: string) => time(v) },
              { title: '状态', key: 'state', render: (_, s) => sessionState(s) },
              { title: '结束时间', dataIndex: 'revokedAt', render: (v: string) => time(v || null) },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

const TYPE_LABEL: Record<string, string> = {
  issue: '积分发放',
  pay: '积分支付',
  refund: '退款退回',
  expire: '过期',
};

function Ledger({ member, onClose }: { member: AdminMember; onClose: () => void }) {
  return (
    <Drawer
      open
      width={760}
      title={`积分明细：${member.phone || member.username}（站点 ${member.siteId}）`}
      onClose={onClose}
      destroyOnClose
    >
      <ProTable
        rowKey="id"
        search={false}
        options={false}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无积分记录' }}
        request={(p) =>
          pageOf(adminApi.ledger, { siteId: member.siteId, memberId: member.id, pageNum: p.current })
        }
        columns={[
          {
            title: '时间',
            dataIndex: 'createdAt',
            render: (_, e) => minute(e.createdAt),
          },
          { title: '类型', dataIndex: 'type', render: (_, e) => TYPE_LABEL[e.type] ?? e.type },
          {
            title: '变动',
            dataIndex: 'amount',
            render: (_, e) => (e.amount > 0 ? `+${yuan(e.amount)}` : yuan(e.amount)),
          },
          { title: '余额', dataIndex: 'balanceAfter', render: (_, e) => yuan(e.balanceAfter) },
          { title: '订单号', dataIndex: 'orderNo' },
          { title: '备注', dataIndex: 'note' },
        ]}
      />
    </Drawer>
  );
}

/** Members of the operator's sites: balance, ledger, a points issue, sessions and freezing. */
export function MembersPage() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const [ledger, setLedger] = useState<AdminMember>();
  const [detail, setDetail] = useState<AdminMember>();
  return (
    <>
      <ProTable<AdminMember, { keyword?: string; siteId?: number }>
        form={searchForm()}
        search={{ labelWidth: 'auto' }}
        headerTitle="会员与积分"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '没有符合条件的会员' }}
        request={(p) =>
          pageOf(adminApi.members, {
            siteId: p.siteId,
            keyword: p.keyword?.trim() || undefined,
            pageNum: p.current,
          })
        }
        columns={[
          {
            title: '手机号 / 用户名',
            dataIndex: 'keyword',
            hideInTable: true,
            fieldProps: { placeholder: '手机号或用户名' },
          },
          { title: '会员 ID', dataIndex: 'id', search: false, width: 90 },
          { title: '站点', dataIndex: 'siteId', search: false, width: 80 },
          { title: '手机号', dataIndex: 'phone', search: false },
          { title: '用户名', dataIndex: 'username', search: false },
          { title: '积分余额', dataIndex: 'balance', search: false, render: (_, m) => yuan(m.balance) },
          {
            title: '状态',
            dataIndex: 'status',
            search: false,
            valueEnum: STATUS,
          },
          {
            title: '注册时间',
            dataIndex: 'createdAt',
            search: false,
            render: (_, m) => day(m.createdAt),
          },
          {
            title: '操作',
            valueType: 'option',
            render: (_, m) => [
              <Button key="detail" type="link" onClick={() => setDetail(m)}>
                详情
              </Button>,
              can('points:view', m.siteId) ? (
                <Button key="ledger" type="link" onClick={() => setLedger(m)}>
                  积分明细
                </Button>
              ) : null,
              can('points:manage', m.siteId) ? (
                <IssueOneForm
                  key="issue"
                  account={m.phone || m.username}
                  siteId={m.siteId}
                  onDone={() => action.current?.reload()}
                />
              ) : null,
            ],
          },
        ]}
      />
      {ledger ? <Ledger member={ledger} onClose={() => setLedger(undefined)} /> : null}
      {detail ? (
        <MemberDrawer
          member={detail}
          onClose={() => setDetail(undefined)}
          onChanged={() => action.current?.reload()}
        />
      ) : null}
    </>
  );
}
