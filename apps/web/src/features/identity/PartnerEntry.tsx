import { MSG } from '@sitemall/contract';
import { App, Spin } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSite } from '../../site/SiteProvider.tsx';
import { LOCAL_KEYS, session, setItem } from '../../site/storage.ts';
import { getOpenId, partnerLogin, refusalAnswer, tokenByOpenId } from './api.ts';
import {
  detectPartnerEntry,
  type PartnerEntry,
  type PartnerOutcome,
  partnerOutcome,
  partnerParamsIn,
  withoutPartnerParams,
} from './partner.ts';
import { CHECKED_TOKEN_KEY, storeLogin } from './session.ts';

/** Site-namespaced key of the DingTalk corpId captured from a landing address (spec section 1). */
export const CORP_ID_KEY = 'corpId';

/** The hotline in the wrong-user-id dialog; read live because it may still be decrypting. */
function WrongUserIdNotice() {
  const { hotline } = useSite();
  return (
    <div data-testid="wrong-user-id">
      <p>信用授权时未获取到您的用户ID，请联系客服处理。</p>
      {hotline && <p>客服电话：{hotline}</p>}
    </div>
  );
}

async function enter(entry: PartnerEntry, siteId: string): Promise<PartnerOutcome> {
  if (entry.kind === 'wechat') {
    // Messaging-app authorization: the code becomes an open id; a bound member is logged in.
    let opened: Awaited<ReturnType<typeof getOpenId>>;
    try {
      opened = await getOpenId({ siteId, code: entry.code });
    } catch (error) {
      return partnerOutcome(refusalAnswer(error));
    }
    setItem(LOCAL_KEYS.openId, opened.openId, { siteId });
    if (!opened.bound) return 'continue';
    // A refused login continues like any failed entry (the gate's catch).
    const login = await tokenByOpenId({ siteId, openId: opened.openId, openIdSign: opened.openIdSign });
    storeLogin(login, siteId);
    session.set(CHECKED_TOKEN_KEY, login.token);
    return 'loggedIn';
  }
  const answer = await partnerLogin(entry, siteId);
  const outcome = partnerOutcome(answer);
  if (outcome === 'loggedIn' && answer.data?.token && answer.data.user) {
    storeLogin({ token: answer.data.token, user: answer.data.user }, siteId);
    session.set(CHECKED_TOKEN_KEY, answer.data.token);
  }
  return outcome;
}

/**
 * Automatic entry from partner systems (spec sections 1, 4, 8): while the address carries a
 * partner's parameters, the matching login runs instead of the page; then the page shows
 * without them. A failed automatic login just continues, except for the two failures the
 * spec names, which explain themselves in a dialog.
 */
export function PartnerEntryGate({ children }: { children: ReactNode }) {
  const { site, siteId } = useSite();
  const location = useLocation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const pending = partnerParamsIn(new URLSearchParams(location.search)).length > 0;

  useEffect(() => {
    if (!pending || !siteId) return;
    const params = new URLSearchParams(location.search);
    const corpId = params.get('corpId');
    if (corpId) setItem(CORP_ID_KEY, corpId, { siteId });
    const entry = detectPartnerEntry(params, site);
    const next = withoutPartnerParams(location.pathname, location.search, location.hash);
    let current = true;
    const run = entry
      ? enter(entry, siteId).catch((): PartnerOutcome => 'continue')
      : Promise.resolve('continue');
    void run.then((outcome) => {
      // StrictMode runs effects twice; the request layer shares the one call, one navigation follows.
      if (!current) return;
      if (outcome === 'wrongUserId') {
        modal.warning({ title: '授权登录失败', content: <WrongUserIdNotice />, okText: '知道了' });
      }
      if (outcome === 'invitedOnly') {
        modal.warning({ title: '温馨提示', content: MSG.invitedOnly, okText: '知道了' });
      }
      navigate(next, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [pending, siteId, site, location.pathname, location.search, location.hash, modal, navigate]);

  if (pending) {
    return (
      <div className="site-state site-state--loading">
        <Spin size="large" tip="正在登录…">
          <div className="site-state__spin" />
        </Spin>
      </div>
    );
  }
  return <>{children}</>;
}
