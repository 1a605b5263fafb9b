import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { LoginForm, ProFormText } from '@ant-design/pro-components';
import { adminApi } from '@sitemall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call, setToken } from '../api';

interface Fields {
  username: string;
  password: string;
  totp?: string;
}

/** Username and password; when the operator has TOTP bound, a second step asks for the code. */
export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [totpStep, setTotpStep] = useState(false);
  const [error, setError] = useState('');

  const submit = async (fields: Fields) => {
    setError('');
    try {
      const answer = await call(adminApi.login, {
        username: fields.username,
        password: fields.password,
        ...(totpStep && fields.totp ? { totp: fields.totp } : {}),
      });
      if (answer.totpNeeded) {
        setTotpStep(true);
        return;
      }
      setToken(answer.token);
      queryClient.clear();
      navigate('/sites', { replace: true });
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', paddingTop: 80 }}>
      <LoginForm<Fields>
        title="Sitemall 运营后台"
        subTitle="站点、订单、会员与积分的运营管理"
        onFinish={submit}
        submitter={{ searchConfig: { submitText: totpStep ? '验证并登录' : '登录' } }}
      >
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <ProFormText
          name="username"
          fieldProps={{ size: 'large', prefix: <UserOutlined />, autoComplete: 'username' }}
          placeholder="用户名"
          rules={[{ required: true, message: '请输入用户名' }]}
          disabled={totpStep}
        />
        <ProFormText.Password
          name="password"
          fieldProps={{ size: 'large', prefix: <LockOutlined />, autoComplete: 'current-password' }}
          placeholder="密码"
          rules={[{ required: true, message: '请输入密码' }]}
          disabled={totpStep}
        />
        {totpStep ? (
          <ProFormText
            name="totp"
            fieldProps={{ size: 'large', prefix: <SafetyOutlined />, inputMode: 'numeric', maxLength: 6 }}
            placeholder="动态口令（6 位数字）"
            rules={[{ required: true, pattern: /^\d{6}$/, message: '请输入 6 位动态口令' }]}
          />
        ) : null}
      </LoginForm>
    </div>
  );
}
