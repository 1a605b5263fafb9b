// @vitest-environment node
import { identityApi } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { detectPartnerEntry, partnerOutcome, partnerParamsIn, withoutPartnerParams } from './partner.ts';

const q = (query: string) => new URLSearchParams(query);

describe('detectPartnerEntry', () => {
  it('recognises each partner parameter', () => {
    expect(detectPartnerEntry(q('siteId=719&ticket=T'), null)).toEqual({
      kind: 'haers',
      path: identityApi.haersLogin.path,
      payload: { ticket: 'T' },
    });
    expect(detectPartnerEntry(q('authLoginParams=A'), null)).toMatchObject({
      kind: 'norm',
      path: identityApi.normLogin.path,
      payload: { authLoginParams: 'A' },
    });
    expect(detectPartnerEntry(q('loginParams=L'), null)).toMatchObject({
      kind: 'hr',
      path: identityApi.hrLogin.path,
      payload: { loginParams: 'L' },
    });
  });

  it('logs in by DingTalk only where the site switch is on and an auth code came with the corpId', () => {
    const params = q('corpId=ding1&authCode=C');
    expect(detectPartnerEntry(params, { dingtalkAuthSwitch: 1 })).toEqual({
      kind: 'dingtalk',
      path: identityApi.dingtalkLogin.path,
      payload: { corpId: 'ding1', authCode: 'C' },
    });
    expect(detectPartnerEntry(params, { dingtalkAuthSwitch: 0 })).toBeNull();
    expect(detectPartnerEntry(q('corpId=ding1'), { dingtalkAuthSwitch: 1 })).toBeNull();
  });

  it('takes code with state as a messaging-app authorization, never code alone', () => {
    expect(detectPartnerEntry(q('code=W&state=wx'), null)).toEqual({ kind: 'wechat', code: 'W' });
    expect(detectPartnerEntry(q('code=W'), null)).toBeNull();
  });

  it('finds nothing on an ordinary address', () => {
    expect(detectPartnerEntry(q('siteId=719&itemName=x'), { dingtalkAuthSwitch: 1 })).toBeNull();
  });
});

describe('withoutPartnerParams', () => {
  it('keeps everything but the partner parameters', () => {
    expect(withoutPartnerParams('/home', '?siteId=719&ticket=T&x=1', '#top')).toBe(
      '/home?siteId=719&x=1#top',
    );
    expect(withoutPartnerParams('/home', '?ticket=T')).toBe('/home');
    expect(withoutPartnerParams('/home', '?siteId=1&corpId=c&authCode=a')).toBe('/home?siteId=1');
    expect(withoutPartnerParams('/searchList', '?code=x&siteId=1')).toBe('/searchList?code=x&siteId=1');
    expect(partnerParamsIn(q('code=x&state=y&siteId=1'))).toEqual(['code', 'state']);
  });
});

describe('partnerOutcome (spec section 8)', () => {
  it('logs in on success with a token', () => {
    expect(partnerOutcome({ code: 200, data: { success: true, token: 't' } })).toBe('loggedIn');
  });
  it('recognises the wrong bank user id message', () => {
    expect(
      partnerOutcome({ code: 500, msg: '获取到的用户id不正确，请联系客服', data: { success: false } }),
    ).toBe('wrongUserId');
  });
  it('recognises an invited-only refusal by code 500 with authErrUrl', () => {
    expect(
      partnerOutcome({ code: 500, msg: 'x', data: { success: false, authErrUrl: '/shoppingmall/home' } }),
    ).toBe('invitedOnly');
    expect(partnerOutcome({ code: 400, msg: 'x', data: { authErrUrl: '/x' } })).toBe('continue');
  });
  it('continues on any other failure', () => {
    expect(partnerOutcome({ code: 500, msg: '授权登录失败，请重新进入', data: null })).toBe('continue');
    expect(partnerOutcome({ code: 200, data: { success: true } })).toBe('continue');
  });
});
