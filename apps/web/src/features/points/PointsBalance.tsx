import { useQuery } from '@tanstack/react-query';
import { Skeleton } from 'antd';
import { useSite } from '../../site/SiteProvider.tsx';
import { pointsBalanceQuery } from './api.ts';
import './points.css';

/** The balance in the site's unit, two decimals (spec section 9). */
export function PointsBalance() {
  const { siteId, formatMoney } = useSite();
  const balance = useQuery({ ...pointsBalanceQuery(siteId ?? ''), enabled: !!siteId });
  return (
    <div className="points-balance" data-testid="points-balance">
      <span className="points-balance__label">可用余额</span>
      {balance.isPending ? (
        <Skeleton.Input active size="small" />
      ) : balance.isError ? (
        <span className="points-balance__error">{balance.error.message}</span>
      ) : (
        <strong className="points-balance__value">{formatMoney(balance.data)}</strong>
      )}
    </div>
  );
}
