import { PAY_WAY, type PayOrderInfo, type PayResult, type WechatCode } from '@sitemall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useAction } from '../../api/action.ts';
import { keys } from '../../api/keys.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { payOrder, payResultQuery, submitOrder } from './api.ts';
import { isCodeUsable } from './lib/wechat.ts';

/**
 * Submits an order. The submitted lines left the cart (the header count and the cart page
 * re-read it), the applied vouchers are used, and the member has one more order.
 */
export function useSubmitOrder() {
  const { siteId } = useSite();
  const queryClient = useQueryClient();
  const sid = siteId ?? '';
  return useMutation({
    mutationFn: (input: Parameters<typeof submitOrder>[1]) => submitOrder(sid, input),
    onSuccess: () => {
      for (const queryKey of [keys.voucher.all(sid), keys.cart.all(sid), keys.order.all(sid)])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
}

/**
 * Pays an order: by points, or asks WeChat for a code. Points may move or be held either way, so
 * the member's data (balance in the header and on the page) is re-read; a refusal reloads the
 * order, which may have expired or been paid meanwhile.
 */
export function usePayOrder(order: Pick<PayOrderInfo, 'orderNo' | 'orderType'>) {
  const { siteId } = useSite();
  const queryClient = useQueryClient();
  const sid = siteId ?? '';
  return useMutation({
    mutationFn: (input: { payWay: string; pointsAmount?: number }) =>
      payOrder(sid, { orderNo: order.orderNo, orderType: order.orderType, ...input }),
    onError: () => void queryClient.invalidateQueries({ queryKey: keys.order.payInfo(sid, order.orderNo) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.member(sid) }),
  });
}

/** Runs an order action (cancel, confirm receipt), says how it went, and refreshes the orders. */
export function useOrderAction() {
  const { siteId } = useSite();
  return useAction(keys.order.all(siteId ?? ''));
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
  const payment = usePayOrder(order);
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
    try {
      const answer = await payment.mutateAsync({
        payWay: PAY_WAY.wechatPc,
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
    }
  };

  return {
    code,
    isRequesting: payment.isPending,
    error,
    request,
    /** Hides the code (back to choosing how to pay); it stays open on the server until it expires. */
    hide: () => setRequested(null),
  };
}
