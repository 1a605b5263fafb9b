import { type ActionType, ProTable } from '@ant-design/pro-components';
import {
  ADMIN_AREA_LABEL,
  type AdminArea,
  type AdminOperator,
  type AdminRole,
  adminApi,
} from '@sitemall/contract';
import { App, Card, Space, Tag } from 'antd';
import { useRef } from 'react';
import { call, pageOf } from '../api';
import { day } from '../format';
import { useSession } from '../session';
import { TextAction } from './TextAction';

const permissionLabel = (p: string) => {
  const [area, level] = p.split(':');
  return `${ADMIN_AREA_LABEL[area as AdminArea] ?? area}${level === 'manage' ? '管理' : '查看'}`;
};
const scopeLabel = (siteIds: number[] | null) =>
  siteIds === null ? '全部站点' : `站点 ${siteIds.join('、')}`;

/** Operators with their role assignments (each with its site scope), and the roles' permissions. */
export function OperatorsPage() {
  const { can } = useSession();
  const { message } = App.useApp();
  const action = useRef<ActionType>(null);
  const totp = async (o: AdminOperator, change: { required?: boolean; reset?: true }, reason: string) => {
    await call(adminApi.operatorTotp, { operatorId: o.id, ...change, reason });
    message.success(change.reset ? `已重置 ${o.username} 的动态口令` : `已更新 ${o.username} 的动态口令要求`);
    action.current?.reload();
  };
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <ProTable<AdminOperator>
        headerTitle="运营人员"
        actionRef={action}
        rowKey="id"
        search={false}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无运营人员' }}
        request={(p) => pageOf(adminApi.operators, { pageNum: p.current })}
        columns={[
          { title: '用户名', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'name' },
          {
            title: '角色与站点范围',
            dataIndex: 'assignments',
            render: (_, o) =>
              o.assignments.map((a) => (
                <Tag key={a.roleId} color="blue">{`${a.roleName} · ${scopeLabel(a.siteIds)}`}</Tag>
              )),
          },
          {
            title: '动态口令',
            dataIndex: 'totpBound',
            render: (_, o) => (
              <Space size={4}>
                {o.totpBound ? <Tag color="success">已绑定</Tag> : <Tag>未绑定</Tag>}
                {o.totpRequired && <Tag color="warning">必须</Tag>}
              </Space>
            ),
          },
          {
            title: '状态',
            dataIndex: 'status',
            valueEnum: { 1: { text: '正常', status: 'Success' }, 0: { text: '停用', status: 'Default' } },
          },
          {
            title: '创建时间',
            dataIndex: 'createdAt',
            render: (_, o) => day(o.createdAt),
          },
          ...(can('operators:manage')
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  render: (_: unknown, o: AdminOperator) => (
                    <Space size={0} wrap>
                      <TextAction
                        link
                        label={o.totpRequired ? '取消必须口令' : '设为必须口令'}
                        title={`${o.username}：${o.totpRequired ? '取消' : '要求'}动态口令登录`}
                        field="操作原因"
                        onSubmit={(reason) => totp(o, { required: !o.totpRequired }, reason)}
                      />
                      {o.totpBound && (
                        <TextAction
                          link
                          danger
                          label="重置口令"
                          title={`重置 ${o.username} 的动态口令（需重新绑定）`}
                          field="操作原因"
                          onSubmit={(reason) => totp(o, { reset: true }, reason)}
                        />
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Card title="角色与权限">
        <ProTable<AdminRole>
          rowKey="id"
          search={false}
          options={false}
          pagination={false}
          request={async () => {
            const { list } = await call(adminApi.roles, {});
            return { data: list, success: true, total: list.length };
          }}
          columns={[
            { title: '角色', dataIndex: 'name', width: 140 },
            {
              title: '权限',
              dataIndex: 'permissions',
              render: (_, r) => r.permissions.map((p) => <Tag key={p}>{permissionLabel(p)}</Tag>),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
