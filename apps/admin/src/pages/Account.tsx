import { ProDescriptions } from '@ant-design/pro-components';
import { adminApi, type TotpSetup } from '@sitemall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, QRCode, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../api';
import { useSession } from '../session';

const scopeLabel = (siteIds: number[] | null) =>
  siteIds === null ? '全部站点' : `站点 ${siteIds.join('、')}`;

/**
 * The operator's own account: who they are, their roles, and the second factor. Binding shows a
 * new secret as a QR code for an authenticator app and keeps it only when a code from the app
 * and the login password confirm it.
 */
export function AccountPage() {
  const { me } = useSession();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<TotpSetup>();
  const [loading, setLoading] = useState(false);

  const start = async () => {
    setLoading(true);
    try {
      setSetup(await call(adminApi.totpSetup, {}));
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setLoading(false);
    }
  };
  const bind = async (fields: { code: string; password: string }) => {
    if (!setup) return;
    try {
      await call(adminApi.totpBind, { secret: setup.secret, ...fields });
      message.success('已绑定动态口令，下次登录需输入口令');
      setSetup(undefined);
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    } catch (error) {
      message.error((error as Error).message);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%', maxWidth: 880 }}>
      <Card title="账号信息">
        <ProDescriptions column={1}>
          <ProDescriptions.Item label="用户名">{me.username}</ProDescriptions.Item>
          <ProDescriptions.Item label="姓名">{me.name}</ProDescriptions.Item>
          <ProDescriptions.Item label="角色与站点范围">
            <Space wrap>
              {me.assignments.map((a) => (
                <Tag key={a.roleId} color="blue">{`${a.roleName} · ${scopeLabel(a.siteIds)}`}</Tag>
              ))}
            </Space>
          </ProDescriptions.Item>
        </ProDescriptions>
      </Card>
      <Card
        title="动态口令（双因素登录）"
        extra={me.totpBound ? <Tag color="success">已绑定</Tag> : <Tag>未绑定</Tag>}
      >
        {me.totpBound ? (
          <Typography.Paragraph>
            登录时除密码外还需输入验证器应用中的 6 位动态口令。手机遗失或需更换时，请联系平台管理员重置。
          </Typography.Paragraph>
        ) : setup ? (
          <Space align="start" size="large" wrap>
            <Space direction="vertical" align="center">
              <QRCode value={setup.uri} size={180} bordered aria-label="动态口令二维码" />
              <Typography.Text type="secondary">无法扫码时手动输入密钥：</Typography.Text>
              <Typography.Text code copyable data-testid="totp-secret">
                {setup.secret}
              </Typography.Text>
            </Space>
            <Form<{ code: string; password: string }>
              layout="vertical"
              style={{ width: 300 }}
              onFinish={bind}
              requiredMark={false}
            >
              <Typography.Paragraph>
                用验证器应用（如 Google Authenticator、Microsoft
                Authenticator）扫描二维码，再输入应用显示的口令。
              </Typography.Paragraph>
              <Form.Item
                name="code"
                label="动态口令"
                rules={[
                  { required: true, message: '请输入动态口令' },
                  { pattern: /^\d{6}$/, message: '动态口令为 6 位数字' },
                ]}
              >
                <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
              </Form.Item>
              <Form.Item
                name="password"
                label="登录密码"
                rules={[{ required: true, message: '请输入登录密码' }]}
              >
                <Input.Password maxLength={128} autoComplete="current-password" />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit">
                  确认绑定
                </Button>
                <Button onClick={() => setSetup(undefined)}>取消</Button>
              </Space>
            </Form>
          </Space>
        ) : (
          <Space direction="vertical">
            {me.totpRequired && (
              <Alert type="warning" showIcon message="平台管理员要求您的账号使用动态口令登录，请尽快绑定。" />
            )}
            <Typography.Paragraph>
              绑定后，登录时除密码外还需输入验证器应用中的动态口令。
            </Typography.Paragraph>
            <Button type="primary" loading={loading} onClick={start}>
              绑定动态口令
            </Button>
          </Space>
        )}
      </Card>
    </Space>
  );
}
