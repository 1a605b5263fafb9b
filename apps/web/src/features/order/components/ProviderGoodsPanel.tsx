import type { ProviderGoods } from '@sitemall/contract';
import { Alert, Tag } from 'antd';

const COLOR: Record<string, string> = { issued: 'green', failed: 'red', expired: 'default' };
const KIND: Record<string, string> = { movie: '取票码', topup: '充值流水', code: '电子码' };

/**
 * Cinema tickets, top-ups and e-codes of an order (issue 15): the provider's state and the
 * codes, masked as the server sends them (the full code is never in a page or a log).
 */
export function ProviderGoodsPanel({ goods }: { goods: ProviderGoods[] }) {
  return (
    <section className="page-card" data-testid="provider-goods">
      <h3 className="checkout__title">电子凭证</h3>
      {goods.map((g, i) => (
        <div className="provider-goods" key={`${g.kind}-${i}`}>
          <div className="provider-goods__head">
            <b>{g.title}</b>
            <Tag color={COLOR[g.status] ?? 'processing'} data-testid="provider-status">
              {g.statusName}
            </Tag>
          </div>
          <p className="checkout__muted">{g.detail}</p>
          {g.maskedCodes.length > 0 && (
            <p>
              {KIND[g.kind] ?? '凭证'}：
              {g.maskedCodes.map((c) => (
                <code className="provider-goods__code" key={c} data-testid="masked-code">
                  {c}
                </code>
              ))}
            </p>
          )}
          {(g.status === 'paid' || g.status === 'issuing') && (
            <Alert type="info" showIcon message="正在向服务商出票，请稍候，页面会自动刷新" />
          )}
        </div>
      ))}
    </section>
  );
}
