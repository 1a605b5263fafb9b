import { PAY_WAY, type PayOrderInfo, type PayResult, type WechatCode } from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { keys } from '../../api/keys.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { payOrder, payResultQuery } from './api.ts';
import { isCodeUsable } from './lib/wechat.ts';

/** Runs an order action (cancel, confirm receipt), says how it went, and refreshes the orders. */
export function useOrderAction() {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      void message.success(done);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '操作失败');
    }
    await queryClient.invalidateQueries({ queryKey: keys.order.all(siteId ?? '') });
  };
}

/** The current time, ticking every second (countdowns, code expiry). */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const POLL_MS = 2000;
const PENDING = [0, 15];

/**
 * The WeChat Native code of an order: asks payOrder for one, and while it can be paid polls
 * payResultQuery every 2 s. Polling stops when the code is hidden, paid, no longer open, or the
 * page is left (the query has no observer then). A paid order calls onPaid once.
 */
export function useWechatCode({
  order,
  now,
  onPaid,
}: {
  order: PayOrderInfo;
  now: number;
  onPaid: () => void;
}) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // A reload while a code is open shows that code again (payOrderInfo.wechat).
  const [requested, setRequested] = useState<WechatCode | null>(order.wechat ?? null);
  const [isRequesting, setRequesting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const paidOnce = useRef(false);

  const sid = siteId ?? '';
  const poll = useQuery({
    ...payResultQuery(sid, order.orderNo),
    enabled: !!requested && isCodeUsable(requested, now),
    refetchInterval: (query) => (query.state.data?.isPaid ? false : POLL_MS),
    refetchIntervalInBackground: true,
  });
  // The poll carries the latest state of the code shown (paid, closed, failed…).
  const latest = poll.data?.wechat;
  const code = requested && latest?.outTradeNo === requested.outTradeNo ? latest : requested;

  const paid = () => {
    if (paidOnce.current) return;
    paidOnce.current = true;
    void queryClient.invalidateQueries({ queryKey: keys.member(sid) });
    onPaid();
  };
  const result: PayResult | undefined = requested ? poll.data : undefined;
  const isPaid = !!result?.isPaid;
  const hasEnded = !!result && !result.isPaid && !PENDING.includes(result.status);
  // biome-ignore lint/correctness/useExhaustiveDependencies: react to the poll's answer only
  useEffect(() => {
    if (isPaid) paid();
    // The order itself ended (expired, cancelled): reload it so the page says so and stops paying.
    else if (hasEnded)
      void queryClient.invalidateQueries({ queryKey: keys.order.payInfo(sid, order.orderNo) });
  }, [isPaid, hasEnded]);

  /** Asks for a code (again): the same open code when pointsAmount is unchanged, else a new one. */
  const request = async (pointsAmount: number | undefined) => {
    setRequesting(true);
    try {
      const answer = await payOrder(sid, {
        orderNo: order.orderNo,
        payWay: PAY_WAY.wechatPc,
        orderType: order.orderType,
        ...(pointsAmount === undefined ? {} : { pointsAmount }),
      });
      setError(null);
      if (answer.isPaid) paid();
      else if (answer.wechat) setRequested(answer.wechat);
      else void message.info(`订单状态：${answer.statusName}`);
    } catch (failure) {
      const text = failure instanceof Error ? failure.message : '微信支付下单失败，请稍后重试';
      setError(text);
      void message.error(text);
      void queryClient.invalidateQueries({ queryKey: keys.order.payInfo(sid, order.orderNo) });
    } finally {
      // Held points change the balance shown in the header and on this page.
      void queryClient.invalidateQueries({ queryKey: keys.member(sid) });
      setRequesting(false);
    }
  };

  return {
    code,
    isRequesting,
    error,
    request,
    /** Hides the code (back to choosing how to pay); it stays open on the server until it expires. */
    hide: () => setRequested(null),
  };
}
