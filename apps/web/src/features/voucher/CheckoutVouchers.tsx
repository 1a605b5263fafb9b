import type { Available } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Skeleton } from 'antd';
import { useState } from 'react';
import type { Payload } from '../../api/request.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { availableQuery } from './api.ts';
import { VoucherCard } from './VoucherCard.tsx';
import './voucher.css';

/**
 * The checkout's vouchers: the server's best combination until the member picks otherwise
 * (null), then the member's pick. The server answers the saving and its split per line for
 * the vouchers applied; submission sends exactly those.
 */
export function useCheckoutVouchers(siteId: string, purchase: Payload, enabled: boolean) {
  const [picked, setPicked] = useState<number[] | null>(null);
  const query = useQuery({ ...availableQuery(siteId, purchase, picked), enabled });
  const applied = query.isError ? [] : (query.data?.chosen ?? []);
  const saving = query.isError ? 0 : (query.data?.saving ?? 0);
  const lineSaving = (specificationId: number) =>
    query.data?.lines.find((l) => l.specificationId === specificationId)?.saving ?? 0;
  return { query, picked, setPicked, applied, saving, lineSaving, ready: !query.isFetching };
}

type CheckoutVouchersState = ReturnType<typeof useCheckoutVouchers>;

/** The list to choose from: usable first (one per stacking group), unusable with the reason. */
export function CheckoutVouchers({ state }: { state: CheckoutVouchersState }) {
  const { formatMoney } = useSite();
  const { query, applied, setPicked } = state;
  if (query.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  const data: Available | undefined = query.data;
  const list = data?.list ?? [];
  if (list.length === 0) return <p className="checkout__muted">暂无可用优惠券</p>;
  const usable = list.filter((v) => v.usable);
  const unusable = list.filter((v) => !v.usable);

  const toggle = (id: number) => {
    const v = list.find((x) => x.id === id);
    if (!v) return;
    if (applied.includes(id)) {
      setPicked(applied.filter((x) => x !== id));
      return;
    }
    const sameGroup = list.filter((x) => x.stackGroup === v.stackGroup).map((x) => x.id);
    setPicked([...applied.filter((x) => !sameGroup.includes(x)), id]);
  };

  return (
    <div className="voucher-choice" data-testid="checkout-vouchers">
      <div className="checkout__muted">
        已选 {applied.length} 张，共优惠{' '}
        <strong data-testid="voucher-saving">{formatMoney(state.saving)}</strong>
        {data && applied.join(',') !== data.best.join(',') && data.best.length > 0 && (
          <Button type="link" size="small" onClick={() => setPicked(null)}>
            使用最优组合
          </Button>
        )}
        {applied.length > 0 && (
          <Button type="link" size="small" onClick={() => setPicked([])} data-testid="voucher-none">
            不使用优惠券
          </Button>
        )}
      </div>
      {query.isError && <p className="checkout__warn">{query.error.message}</p>}
      {usable.map((v) => (
        <button
          type="button"
          key={v.id}
          aria-pressed={applied.includes(v.id)}
          className={`voucher-choice__item${applied.includes(v.id) ? ' voucher-choice__item--on' : ''}`}
          onClick={() => toggle(v.id)}
          data-testid="voucher-option"
        >
          <VoucherCard
            voucher={v}
            testId="voucher-option-card"
            action={<span className="voucher-saving">可省 {formatMoney(v.saving)}</span>}
          />
        </button>
      ))}
      {unusable.map((v) => (
        <VoucherCard
          key={v.id}
          voucher={v}
          muted
          testId="voucher-unusable"
          action={<span className="voucher-choice__reason">{v.reason}</span>}
        />
      ))}
    </div>
  );
}
