import { chinaTime, type VoucherRules } from '@sitemall/contract';
import type { ReactNode } from 'react';
import { useSite } from '../../site/SiteProvider.tsx';

/** The big figure of a voucher face: ¥10, 9折, 5积分. */
export function faceValue(v: Pick<VoucherRules, 'kind' | 'value'>, formatMoney: (fen: number) => string) {
  if (v.kind === 'percent') return { figure: String((100 - v.value) / 10), unit: '折' };
  const text = formatMoney(v.value).replace(/\.00(?=\D*$)/, '');
  return { figure: text, unit: '' };
}

/** One voucher face: value on the left, rule, scope and dates on the right, an action slot. */
export function VoucherCard({
  voucher,
  validText,
  muted,
  badge,
  action,
  testId = 'voucher-card',
}: {
  voucher: VoucherRules & { validFrom?: string; validTo?: string };
  validText?: string;
  muted?: boolean;
  badge?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  const { formatMoney } = useSite();
  const face = faceValue(voucher, formatMoney);
  const dates =
    validText ??
    (voucher.validTo
      ? `${chinaTime(voucher.validFrom, 'YYYY.MM.DD')} - ${chinaTime(voucher.validTo, 'YYYY.MM.DD')}`
      : '');
  return (
    <div className={`voucher-card${muted ? ' voucher-card--muted' : ''}`} data-testid={testId}>
      <div className="voucher-card__face">
        <strong>
          {face.figure}
          <small>{face.unit}</small>
        </strong>
        <span>{voucher.title}</span>
      </div>
      <div className="voucher-card__body">
        <div className="voucher-card__name">
          {voucher.name}
          {badge}
        </div>
        <div className="voucher-card__scope">{voucher.scopeText}</div>
        <div className="voucher-card__dates">{dates}</div>
      </div>
      {action && <div className="voucher-card__action">{action}</div>}
    </div>
  );
}
