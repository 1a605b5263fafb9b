import { ProTable } from '@ant-design/pro-components';
import { adminApi, type LoginLogRow } from '@sitemall/contract';
import { Tag } from 'antd';
import { pageOf } from '../api';
import { time } from '../format';

const RESULTS: Record<string, [string, string]> = {
  ok: ['登录成功', 'green'],
  bad_password: ['密码错误', 'red'],
  bad_totp: ['动态口令错误', 'red'],
  totp_needed: ['待输入动态口令', 'default'],
  totp_unbound: ['未绑定动态口令', 'orange'],
  limited: ['尝试过于频繁', 'orange'],
};

/** Every console login attempt, newest first. */
export function LoginLogPage() {
  return (
    <ProTable<LoginLogRow>
      headerTitle="登录日志"
      rowKey="id"
      search={false}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无登录记录' }}
      request={(p) => pageOf(adminApi.loginLog, { pageNum: p.current })}
      columns={[
        { title: '时间', dataIndex: 'at', render: (_, r) => time(r.at) },
        { title: '用户名', dataIndex: 'username' },
        {
          title: '结果',
          dataIndex: 'result',
          render: (_, r) => {
            const [text, color] = RESULTS[r.result] ?? [r.result, 'default'];
            return <Tag color={color}>{text}</Tag>;
          },
        },
        { title: 'IP', dataIndex: 'ip' },
        { title: '浏览器', dataIndex: 'userAgent', ellipsis: true },
      ]}
    />
  );
}
