import { type ActionType, ProTable } from '@ant-design/pro-components';
import { type AdminMember, adminApi } from '@sitemall/contract';
import { Button, Drawer } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { pageOf } from '../api';
import { yuan } from '../format';
import { useSession } from '../session';
import { IssueOneForm } from './issue-forms';

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
            render: (_, e) => dayjs(e.createdAt).format('YYYY-MM-DD HH:mm'),
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

/** Members of the operator's sites with their balance, ledger and a points issue. */
export function MembersPage() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const [ledger, setLedger] = useState<AdminMember>();
  return (
    <>
      <ProTable<AdminMember, { keyword?: string; siteId?: number }>
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
          { title: '手机号 / 用户名', dataIndex: 'keyword', hideInTable: true },
          { title: '会员 ID', dataIndex: 'id', search: false, width: 90 },
          { title: '站点', dataIndex: 'siteId', search: false, width: 80 },
          { title: '手机号', dataIndex: 'phone', search: false },
          { title: '用户名', dataIndex: 'username', search: false },
          { title: '积分余额', dataIndex: 'balance', search: false, render: (_, m) => yuan(m.balance) },
          {
            title: '状态',
            dataIndex: 'status',
            search: false,
            valueEnum: { 1: { text: '正常', status: 'Success' }, 0: { text: '停用', status: 'Default' } },
          },
          {
            title: '注册时间',
            dataIndex: 'createdAt',
            search: false,
            render: (_, m) => dayjs(m.createdAt).format('YYYY-MM-DD'),
          },
          {
            title: '操作',
            valueType: 'option',
            render: (_, m) => [
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
    </>
  );
}
