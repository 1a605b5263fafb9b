import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Result, Skeleton } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { centerQuery, useClaimVoucher } from './api.ts';
import { VoucherCard } from './VoucherCard.tsx';
import './voucher.css';

/** /voucherCenter (领券中心): the templates members may claim now, with what is left. */
export function VoucherCenter() {
  const { siteId } = useSite();
  const link = useSiteLink();
  const { message } = App.useApp();
  const list = useQuery({ ...centerQuery(siteId ?? ''), enabled: !!siteId });
  const claiming = useClaimVoucher(siteId ?? '');

  const claim = async (templateId: number) => {
    try {
      const { voucher } = await claiming.mutateAsync(templateId);
      void message.success(voucher.status === 'pending_review' ? '已提交领取申请，待审核' : '领取成功');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '领取失败');
    }
  };

  return (
    <section className="page-card" data-testid="voucher-center">
      <h2 className="page-card__title">
        领券中心
        <Link to={link('/myVoucher')} style={{ marginLeft: 16, fontSize: 14, fontWeight: 400 }}>
          我的优惠券 ›
        </Link>
      </h2>
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : list.isError ? (
        <Result status="warning" title="领券中心加载失败" subTitle={list.error.message} />
      ) : list.data.length === 0 ? (
        <Empty description="暂无可领取的优惠券" />
      ) : (
        <div className="voucher-grid">
          {list.data.map((t) => {
            const soldOut = t.remaining === 0;
            const full = !soldOut && !t.canClaim;
            return (
              <VoucherCard
                key={t.templateId}
                testId="center-card"
                voucher={t}
                validText={`${t.validText}${t.remaining === null ? '' : ` · 剩余 ${t.remaining} 张`}`}
                muted={!t.canClaim}
                action={
                  <Button
                    type="primary"
                    size="small"
                    disabled={!t.canClaim}
                    loading={claiming.isPending && claiming.variables === t.templateId}
                    onClick={() => void claim(t.templateId)}
                    data-testid="center-claim"
                  >
                    {soldOut ? '已领完' : full ? '已领取' : t.claimMode === 'review' ? '申请' : '领取'}
                  </Button>
                }
              />
            );
          })}
        </div>
      )}
    </section>
  );
}
