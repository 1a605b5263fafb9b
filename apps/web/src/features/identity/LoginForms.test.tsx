import { IDENTITY_MSG, identityApi, MSG } from '@sitemall/contract';
import { onlineManager } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../api/request.ts';
import { getToken, setSiteId } from '../../site/storage.ts';
import { fakeServer, refuse } from '../../test/fakeServer.ts';
import { serverKey } from '../../test/fixtures.ts';
import { renderSitePage } from '../../test/sitePage.tsx';
import { CodeLogin, PasswordLogin } from './LoginForms.tsx';

/** One key for the file: the page keeps the server's key once it has it. */
const key = serverKey();
const member = { token: 'new-token', user: { id: 9, phone: '13800000719', username: 'zhangsan' } };
const imageCode = () => ({ captchaId: 'cap-1', svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' });

const type = (placeholder: string | RegExp, value: string) =>
  fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } });
const press = (name: RegExp) => fireEvent.click(screen.getByText(name).closest('button') as HTMLElement);

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setSiteId('719');
});
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('password login (login way 1: phone and password)', () => {
  it('says what is missing or malformed and sends nothing', async () => {
    const server = fakeServer({});
    renderSitePage(<PasswordLogin by="phone" />, '/PwdLogin?siteId=719');
    press(/^登\s?录$/);
    expect(await screen.findByText('请输入手机号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();

    type('请输入手机号', '23800000719');
    type('请输入密码', 'abcdef');
    expect(await screen.findByText(IDENTITY_MSG.badPhone)).toBeTruthy();
    expect(await screen.findByText(MSG.passwordRule)).toBeTruthy();
    press(/^登\s?录$/);
    type('请输入密码', '12345');
    expect(await screen.findByText(MSG.passwordRule)).toBeTruthy();
    expect(server.bodiesOf(identityApi.pwdLogin.path)).toEqual([]);
  });

  it("sends the password encrypted, shows the server's refusal with an image code, then logs in", async () => {
    let refusals = 1;
    const server = fakeServer({
      [identityApi.publicKey.path]: () => key.answer,
      [identityApi.imageCode.path]: imageCode,
      [identityApi.pwdLogin.path]: () => (refusals-- > 0 ? refuse(500, '账号或密码错误') : member),
    });
    renderSitePage(<PasswordLogin by="phone" />, '/PwdLogin?siteId=719');
    type('请输入手机号', '13800000719');
    type('请输入密码', 'abc123');
    press(/^登\s?录$/);
    expect((await screen.findByTestId('auth-error')).textContent).toContain('账号或密码错误');
    const [first] = server.bodiesOf(identityApi.pwdLogin.path);
    expect(first).toMatchObject({ siteId: '719', phone: '13800000719' });
    expect(first?.password).not.toBe('abc123');
    expect(key.reveal(first?.password)).toBe('abc123');

    // After a refusal the form asks for an image code and sends it with the next try.
    type('请输入图形验证码', 'AB12');
    press(/^登\s?录$/);
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    expect(screen.getByTestId('elsewhere').textContent).toBe('/home?siteId=719');
    expect(server.bodiesOf(identityApi.pwdLogin.path)[1]).toMatchObject({
      captchaId: 'cap-1',
      imageCode: 'AB12',
    });
    expect(getToken()).toBe('new-token');
  });
});

describe('a browser that believes it is offline', () => {
  // Chromium can report offline (a network change) while the mall answers. A call paused until
  // the browser says online again left the login button spinning with nothing sent.
  afterEach(() => onlineManager.setOnline(true));

  it('still sends the login, and shows the answer', async () => {
    const server = fakeServer({
      [identityApi.publicKey.path]: () => key.answer,
      [identityApi.pwdLogin.path]: () => refuse(500, '账号或密码错误'),
    });
    renderSitePage(<PasswordLogin by="phone" />, '/PwdLogin?siteId=719');
    onlineManager.setOnline(false);
    type('请输入手机号', '13800000719');
    type('请输入密码', 'abc123');
    press(/^登\s?录$/);
    expect((await screen.findByTestId('auth-error', {}, { timeout: 5_000 })).textContent).toContain(
      '账号或密码错误',
    );
    expect(server.bodiesOf(identityApi.pwdLogin.path)).toHaveLength(1);
  });
});

describe('account login (login way 3: username and password)', () => {
  it('asks for the account, and sends it trimmed', async () => {
    const server = fakeServer({
      [identityApi.publicKey.path]: () => key.answer,
      [identityApi.accountLogin.path]: () => member,
    });
    renderSitePage(<PasswordLogin by="account" />, '/AccountLogin?siteId=719');
    type('请输入账号', '   ');
    type('请输入密码', 'abc123');
    press(/^登\s?录$/);
    expect(await screen.findByText('请输入账号')).toBeTruthy();
    expect(server.bodiesOf(identityApi.accountLogin.path)).toEqual([]);

    type('请输入账号', ' zhangsan ');
    press(/^登\s?录$/);
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    const [sent] = server.bodiesOf(identityApi.accountLogin.path);
    expect(sent).toMatchObject({ siteId: '719', username: 'zhangsan' });
    expect(key.reveal(sent?.password)).toBe('abc123');
  });
});

describe('SMS code login (login way 2)', () => {
  it('checks phone, image code and the 6-digit code before anything is sent', async () => {
    const server = fakeServer({ [identityApi.imageCode.path]: imageCode });
    renderSitePage(<CodeLogin />, '/CodeLogin?siteId=719');
    press(/^登\s?录$/);
    expect(await screen.findByText('请输入手机号')).toBeTruthy();
    expect(screen.getByText('请输入短信验证码')).toBeTruthy();

    // Getting a code needs a valid phone, then the image code.
    fireEvent.click(screen.getByTestId('send-code'));
    type('请输入手机号', '1380000071');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByText(IDENTITY_MSG.badPhone)).toBeTruthy();
    type('请输入手机号', '13800000719');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByText(IDENTITY_MSG.imageCodeRequired)).toBeTruthy();

    type(/位短信验证码/, '12ab');
    expect(await screen.findByText(IDENTITY_MSG.badCodeFormat)).toBeTruthy();
    expect(server.bodiesOf(identityApi.sendSmsCode.path)).toEqual([]);
    expect(server.bodiesOf(identityApi.smsLogin.path)).toEqual([]);
  });

  it('sends a code, counts down to the next one, and logs in with the code', async () => {
    const server = fakeServer({
      [identityApi.imageCode.path]: imageCode,
      [identityApi.sendSmsCode.path]: () => ({ resendAfter: 60 }),
      [identityApi.smsLogin.path]: (body) => (body.code === '123456' ? member : refuse(500, '验证码错误')),
    });
    renderSitePage(<CodeLogin />, '/CodeLogin?siteId=719');
    type('请输入手机号', '13800000719');
    type('请输入图形验证码', 'AB12');
    await waitFor(() => expect(server.bodiesOf(identityApi.imageCode.path)).toHaveLength(1));
    fireEvent.click(screen.getByTestId('send-code'));
    await waitFor(() => expect(screen.getByTestId('send-code').textContent).toMatch(/^\d+秒后重新获取$/));
    expect((screen.getByTestId('send-code') as HTMLButtonElement).disabled).toBe(true);
    expect(server.bodiesOf(identityApi.sendSmsCode.path)).toEqual([
      { siteId: '719', phone: '13800000719', purpose: 'login', captchaId: 'cap-1', imageCode: 'AB12' },
    ]);

    type(/位短信验证码/, '654321');
    press(/^登\s?录$/);
    expect((await screen.findByTestId('auth-error')).textContent).toContain('验证码错误');
    type(/位短信验证码/, '123456');
    press(/^登\s?录$/);
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
    expect(server.bodiesOf(identityApi.smsLogin.path).at(-1)).toEqual({
      siteId: '719',
      phone: '13800000719',
      code: '123456',
    });
    expect(getToken()).toBe('new-token');
  });
});
