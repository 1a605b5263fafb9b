import { ACTIVITY_TICK_MS } from '@sitemall/contract';
import { useEffect, useMemo, useState } from 'react';
import { offsetOf } from './countdown.ts';

/** The server's clock: the answer's currentTime plus the time passed here, ticking every second. */
export function useServerNow(serverTime: number | undefined, receivedAt: number): number {
  const offset = useMemo(
    () => (serverTime === undefined ? 0 : offsetOf(serverTime, receivedAt)),
    [serverTime, receivedAt],
  );
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), ACTIVITY_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now + offset;
}
