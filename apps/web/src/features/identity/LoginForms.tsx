import { LockOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { IDENTITY_MSG, LOGIN_WAY, type LoginResult } from '@sitemall/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input } from 'antd';
import type { PasswordProps } from 'antd/es/input';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { ImageCodeField, imageCodeProof, refreshImageCode, useImageCode } from '../../shared/ImageCode.tsx';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { AuthFootItem, AuthShell } from './AuthShell.tsx';
import { accountLogin, findPassword, pwdLogin, register, smsLogin } from './api.ts';
import { useLoginSuccess } from './hooks.ts';
import { loginPasswordRules, passwordRule, phoneRules, sameAs } from './rules.ts';
import { SmsCodeFields } from './SmsCodeFields.tsx';

/**
 * Submits a form's call, shows the server's msg when it fails, logs in when it succeeds.
 * `onFail` hears every refusal (the password forms then show an image code); null when no
 * answer came at all.
 */
function useSubmit<V>(
  send: (values: V) => Promise<LoginResult>,
  successMsg: string = IDENTITY_MSG.loggedIn,
  onFail?: (refusal: ApiError | null) => void,
) {
  const onLogin = useLoginSuccess();
  const { message } = App.useApp();
  const [error, setError] = useState<string | null>(null);
  const login = useMutation({ mutationFn: send });
  const submit = async (values: V) => {
    setError(null);
    try {
      const result = await login.mutateAsync(values);
      message.success(successMsg);
      onLogin(result);
    } catch (e) {
      const refusal = e instanceof ApiError ? e : null;
      setError((e as Error).message || '网络异常，请稍后重试');
      onFail?.(refusal);
    }
  };
  return { submit, error, busy: login.isPending, clearError: () => setError(null) };
}

function FormError({ error, onClose }: { error: string | null; onClose: () => void }) {
  if (!error) return null;
  return (
    <Alert
      className="idn-error"
      type="error"
      showIcon
      closable
      message={error}
      onClose={onClose}
      style={{ marginBottom: 16 }}
      role="alert"
      data-testid="auth-error"
    />
  );
}

function RegisterLink() {
  const { site } = useSite();
  const link = useSiteLink();
  if (site?.configJson.showRegister !== 'Y') return null;
  return (
    <AuthFootItem>
      还没有账号？<Link to={link('/register')}>免费注册</Link>
    </AuthFootItem>
  );
}

interface PasswordValues {
  phone?: string;
  username?: string;
  password: string;
  imageCode?: string;
}

/** The primary, full-width button that sends an auth form. */
function SubmitItem({
  busy,
  style,
  children,
}: {
  busy: boolean;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <Form.Item style={style}>
      <Button type="primary" size="large" htmlType="submit" block loading={busy}>
        {children}
      </Button>
    </Form.Item>
  );
}

/**
 * A password box of the auth forms (at most 20 characters, section 5). It passes on what its
 * Form.Item gives it (value, onChange, id), as the Input.Password it stands for would take it.
 */
function PasswordInput(props: PasswordProps & { placeholder: string; autoComplete: string }) {
  return <Input.Password size="large" prefix={<LockOutlined />} maxLength={20} {...props} />;
}

/** Server answers that point at the image code field. */
const IMAGE_CODE_ANSWERS: string[] = [IDENTITY_MSG.imageCodeRequired, IDENTITY_MSG.wrongImageCode];

/** The phone field every form here starts with (section 5: 11 digits starting with 1). */
function PhoneField() {
  return (
    <Form.Item name="phone" rules={phoneRules} validateFirst>
      <Input
        size="large"
        prefix={<MobileOutlined />}
        placeholder="请输入手机号"
        maxLength={11}
        autoComplete="tel"
      />
    </Form.Item>
  );
}

/**
 * Password login (way 1: phone + password) and account login (way 3: username + password),
 * each with the find-password flow one click away. After a refused try the form shows an image
 * code: the server asks for one once an account or an address has failed a few times, and each
 * code serves one try, so a fresh one is drawn after every refusal.
 */
export function PasswordLogin({ by }: { by: 'phone' | 'account' }) {
  const { siteId } = useSite();
  const [view, setView] = useState<'login' | 'find'>('login');
  const [form] = Form.useForm<PasswordValues>();
  const [needCode, setNeedCode] = useState(false);
  const captcha = useImageCode(siteId, `login:${by}`, needCode);
  const onFail = (refusal: ApiError | null) => {
    if (needCode) refreshImageCode(form, captcha);
    setNeedCode(true);
    if (refusal && IMAGE_CODE_ANSWERS.includes(refusal.message))
      form.setFields([{ name: 'imageCode', errors: [refusal.message] }]);
  };
  const { submit, error, busy, clearError } = useSubmit(
    (v: PasswordValues) => {
      const proof = needCode ? imageCodeProof(form, captcha) : {};
      return by === 'phone'
        ? pwdLogin({ siteId: siteId ?? '', phone: v.phone ?? '', password: v.password, ...proof })
        : accountLogin({
            siteId: siteId ?? '',
            username: (v.username ?? '').trim(),
            password: v.password,
            ...proof,
          });
    },
    IDENTITY_MSG.loggedIn,
    onFail,
  );

  if (view === 'find') {
    return (
      <FindPassword
        onDone={(phone) => {
          if (by === 'phone') form.setFieldsValue({ phone, password: '' });
          setView('login');
        }}
      />
    );
  }
  const title = by === 'phone' ? '密码登录' : '账号登录';
  return (
    <AuthShell
      title={title}
      footer={
        <>
          <CodeLoginLink />
          <RegisterLink />
        </>
      }
    >
      <FormError error={error} onClose={clearError} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} onValuesChange={clearError}>
        {by === 'phone' ? (
          <PhoneField />
        ) : (
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
            <Input
              size="large"
              prefix={<UserOutlined />}
              placeholder="请输入账号"
              maxLength={32}
              autoComplete="username"
            />
          </Form.Item>
        )}
        <Form.Item name="password" rules={loginPasswordRules} validateFirst>
          <PasswordInput placeholder="请输入密码" autoComplete="current-password" />
        </Form.Item>
        {needCode && <ImageCodeField form={form} captcha={captcha} />}
        <div className="idn-links">
          <span />
          <Button type="link" onClick={() => setView('find')}>
            忘记密码？
          </Button>
        </div>
        <SubmitItem busy={busy} style={{ marginTop: 16 }}>
          登录
        </SubmitItem>
      </Form>
    </AuthShell>
  );
}

interface CodeValues {
  phone: string;
  imageCode: string;
  code: string;
}

/** The other way in on an SMS-code site whose members may use their password too. */
function PasswordLoginLink({ prominent = false }: { prominent?: boolean }) {
  const { site } = useSite();
  const link = useSiteLink();
  if (site?.configJson.passwordLogin !== 'Y') return null;
  if (prominent)
    return (
      <p className="idn-alt" data-testid="password-login-offer">
        收不到验证码？<Link to={link('/PwdLogin')}>使用密码登录</Link>
      </p>
    );
  return (
    <AuthFootItem>
      <Link to={link('/PwdLogin')}>密码登录</Link>
    </AuthFootItem>
  );
}

/** Back to the site's own way in, from the password page of an SMS-code site. */
function CodeLoginLink() {
  const { site } = useSite();
  const link = useSiteLink();
  if (site?.loginWay !== LOGIN_WAY.smsCode) return null;
  return (
    <AuthFootItem>
      <Link to={link('/CodeLogin')}>短信验证码登录</Link>
    </AuthFootItem>
  );
}

/** SMS code login (way 2): phone, image code, 6-digit SMS code. */
export function CodeLogin() {
  const { site, siteId } = useSite();
  const [form] = Form.useForm<CodeValues>();
  const { submit, error, busy, clearError } = useSubmit((v: CodeValues) =>
    smsLogin({ siteId: siteId ?? '', phone: v.phone, code: v.code }),
  );
  // A refused code (the hourly cap) stays on the page with its wait, next to the other way in.
  const [refused, setRefused] = useState<string | null>(null);
  return (
    <AuthShell
      title="短信验证码登录"
      subtitle={
        site?.configJson.showRegister === 'Y'
          ? '未注册的手机号验证后将自动注册并登录'
          : '使用手机号和短信验证码登录'
      }
      footer={
        <>
          <PasswordLoginLink />
          <RegisterLink />
        </>
      }
    >
      <FormError error={error ?? refused} onClose={() => (error ? clearError() : setRefused(null))} />
      {refused && <PasswordLoginLink prominent />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} onValuesChange={clearError}>
        <PhoneField />
        <SmsCodeFields form={form} purpose="login" onRefused={setRefused} />
        <SubmitItem busy={busy} style={{ marginTop: 8 }}>
          登录
        </SubmitItem>
      </Form>
    </AuthShell>
  );
}

interface NewPasswordValues {
  phone: string;
  imageCode: string;
  code: string;
  newPsw1: string;
  newPsw2: string;
}

/** The new password and its confirmation, with section 5's rules and messages. */
function NewPasswordFields({ label }: { label: string }) {
  return (
    <>
      <Form.Item
        name="newPsw1"
        rules={[{ required: true, message: '请输入新密码' }, passwordRule]}
        validateFirst
      >
        <PasswordInput placeholder={`${label}（6-20位字母加数字）`} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="newPsw2"
        dependencies={['newPsw1']}
        rules={[{ required: true, message: '请输入确认密码' }, sameAs('newPsw1'), passwordRule]}
        validateFirst
      >
        <PasswordInput placeholder="请再次输入密码" autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** Find password: a new password set with an SMS code (purpose findPassword). */
function FindPassword({ onDone }: { onDone: (phone: string) => void }) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const [form] = Form.useForm<NewPasswordValues>();
  const [error, setError] = useState<string | null>(null);
  const reset = useMutation({
    mutationFn: (v: NewPasswordValues) => findPassword({ siteId: siteId ?? '', ...v }),
  });
  const submit = async (v: NewPasswordValues) => {
    setError(null);
    try {
      await reset.mutateAsync(v);
      message.success(IDENTITY_MSG.passwordReset);
      onDone(v.phone);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <AuthShell
      title="找回密码"
      subtitle="通过绑定的手机号验证后重新设置登录密码"
      footer={
        <AuthFootItem>
          想起密码了？
          <Button type="link" size="small" onClick={() => onDone(form.getFieldValue('phone') ?? '')}>
            返回登录
          </Button>
        </AuthFootItem>
      }
    >
      <FormError error={error} onClose={() => setError(null)} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <PhoneField />
        <SmsCodeFields form={form} purpose="findPassword" />
        <NewPasswordFields label="请设置新密码" />
        <SubmitItem busy={reset.isPending}>重置密码</SubmitItem>
      </Form>
    </AuthShell>
  );
}

/** Registration (only where the site shows it): phone, SMS code (purpose register), password. */
export function Register() {
  const { site, siteId } = useSite();
  const link = useSiteLink();
  const [form] = Form.useForm<NewPasswordValues>();
  const { submit, error, busy, clearError } = useSubmit(
    (v: NewPasswordValues) =>
      register({ siteId: siteId ?? '', phone: v.phone, code: v.code, password: v.newPsw1 }),
    IDENTITY_MSG.registered,
  );
  const loginLink = (
    <AuthFootItem>
      已有账号？<Link to={link('/login')}>立即登录</Link>
    </AuthFootItem>
  );
  if (site?.configJson.showRegister !== 'Y') {
    return (
      <AuthShell title="注册" footer={loginLink}>
        <Alert
          type="info"
          showIcon
          message={IDENTITY_MSG.registerClosed}
          description="请使用商城提供的方式登录。"
        />
      </AuthShell>
    );
  }
  return (
    <AuthShell title="注册新账号" subtitle={`注册成为${site.siteName}会员`} footer={loginLink}>
      <FormError error={error} onClose={clearError} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} onValuesChange={clearError}>
        <PhoneField />
        <SmsCodeFields form={form} purpose="register" />
        <NewPasswordFields label="请设置登录密码" />
        <SubmitItem busy={busy}>注册并登录</SubmitItem>
      </Form>
    </AuthShell>
  );
}
