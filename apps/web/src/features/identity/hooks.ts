import type { LoginResult } from '@sitemall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { keys } from '../../api/keys.ts';
import { runLoginHooks } from '../../site/loginHooks.ts';
import { loginRouteFor } from '../../site/routing.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken, session } from '../../site/storage.ts';
import { logout } from './api.ts';
import { afterLoginTarget, CHECKED_TOKEN_KEY, endSession, storeLogin, takeBackPath } from './session.ts';

/** A countdown in whole seconds (the 60-second SMS resend, spec sections 4 and 9). */
export function useCountdown(): { left: number; start: (seconds: number) => void } {
  const [left, setLeft] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const stop = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  }, []);
  const start = useCallback(
    (seconds: number) => {
      stop();
      const until = Date.now() + seconds * 1000;
      setLeft(seconds);
      timer.current = setInterval(() => {
        const rest = Math.max(0, Math.ceil((until - Date.now()) / 1000));
        setLeft(rest);
        if (rest === 0) stop();
      }, 250);
    },
    [stop],
  );
  useEffect(() => stop, [stop]);
  return { left, start };
}

/**
 * What happens after any successful login (spec section 4): token and user are stored for the
 * site, then the visitor goes back to the stored page, or home.
 */
export function useLoginSuccess(): (result: LoginResult) => Promise<void> {
  const { site, siteId } = useSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (result: LoginResult) => {
      storeLogin(result, siteId);
      // E.g. the guest cart merge (registered by the app composition, src/layout/Root.tsx).
      await runLoginHooks({ siteId });
      // A token just issued needs no loginOrder '0' check.
      session.set(CHECKED_TOKEN_KEY, result.token);
      queryClient.removeQueries({ queryKey: keys.identity });
      const target = afterLoginTarget({
        backPath: takeBackPath(),
        returnBar: site?.configJson.returnBar,
        siteId,
      });
      if (target.kind === 'address') window.location.assign(target.to);
      else navigate(target.to, { replace: true });
    },
    [navigate, queryClient, site?.configJson.returnBar, siteId],
  );
}

/**
 * Ends the session (exit, and after a password change): the server forgets the token, the
 * browser forgets user, token, open id and session storage, and the visitor goes to login.
 */
export function useEndSession(): () => Promise<void> {
  const { site, siteId } = useSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    if (getToken()) await logout(siteId).catch(() => undefined);
    endSession(siteId);
    queryClient.removeQueries({ queryKey: keys.identity });
    navigate(loginRouteFor(site?.loginWay, siteId));
  }, [navigate, queryClient, site?.loginWay, siteId]);
}
