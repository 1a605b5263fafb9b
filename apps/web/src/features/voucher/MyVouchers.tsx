import { PAGE_SIZE, VOUCHER_TABS } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Input, Pagination, Result, Skeleton, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import {
  pendingReviewQuery,
  useBindVoucherCode,
  type VoucherTab,
  voucherCountQuery,
  voucherPageQuery,
} from './api.ts';
import { VoucherCard } from './VoucherCard.tsx';
import './voucher.css';

const isTab = (v: string | null): v is VoucherTab => VOUCHER_TABS.some((t) => t.status === v);

/** /myVoucher (我的优惠券): tabs by status with counts, 10 a page, a code to redeem, claims in review. */
export function MyVouchers() {
  const { siteId } = useSite();
  const link = useSiteLink();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('status');
  const tab: VoucherTab = isTab(tabParam) ? tabParam : 'unused';
  const pageNum = Math.max(1, Number(params.get('pageNum')) || 1);
  const counts = useQuery({ ...voucherCountQuery(siteId ?? ''), enabled: !!siteId });
  const page = useQuery({ ...voucherPageQuery(siteId ?? '', tab, pageNum), enabled: !!siteId });
  const pending = useQuery({ ...pendingReviewQuery(siteId ?? ''), enabled: !!siteId });
  const [code, setCode] = useState('');
  const binding = useBindVoucherCode(siteId ?? '');

  const go = (next: { status?: VoucherTab; pageNum?: number }) => {
    const query = new URLSearchParams(params);
    query.set('status', next.status ?? tab);
    query.set('pageNum', String(next.pageNum ?? 1));
    setParams(query);
  };

  const bind = async () => {
    if (!code.trim()) {
      void message.warning('请输入兑换码');
      return;
    }
    try {
      const { voucher } = await binding.mutateAsync(code.trim());
      void message.success(`已领取：${voucher.name}`);
      setCode('');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '兑换失败');
    }
  };

  const countOf = (status: string) => counts.data?.byStatus.find((s) => s.status === status)?.count;

  return (
    <section className="page-card" data-testid="my-vouchers">
      <h2 className="page-card__title">
        我的优惠券
        <Link to={link('/voucherCenter')} style={{ marginLeft: 16, fontSize: 14, fontWeight: 400 }}>
          去领券中心 ›
        </Link>
      </h2>
      <div className="voucher-bind">
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void bind()}
          maxLength={64}
          placeholder="输入兑换码领取优惠券"
          aria-label="兑换码"
          style={{ maxWidth: 320 }}
          data-testid="voucher-code"
        />
        <Button
          type="primary"
          loading={binding.isPending}
          onClick={() => void bind()}
          data-testid="voucher-bind"
        >
          兑换
        </Button>
      </div>
      {(pending.data?.total ?? 0) > 0 && (
        <p className="checkout__muted" data-testid="voucher-pending">
          有 {pending.data?.total} 张优惠券的领取申请正在审核中。
        </p>
      )}
      <Tabs
        activeKey={tab}
        onChange={(key) => go({ status: key as VoucherTab })}
        items={VOUCHER_TABS.map((t) => {
          const n = countOf(t.status);
          return { key: t.status, label: n === undefined ? t.name : `${t.name}(${n})` };
        })}
      />
      {page.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : page.isError ? (
        <Result status="warning" title="优惠券加载失败" subTitle={page.error.message} />
      ) : page.data.list.length === 0 ? (
        <Empty description="暂无优惠券" />
      ) : (
        <>
          <div className="voucher-grid">
            {page.data.list.map((v) => (
              <VoucherCard
                key={v.id}
                voucher={v}
                muted={v.status !== 'unused'}
                badge={
                  v.status === 'unused' ? null : (
                    <Tag bordered={false} data-testid="voucher-status">
                      {v.statusName}
                    </Tag>
                  )
                }
                action={
                  v.orderNo ? (
                    <Link to={link(`/orderDetail?orderNo=${encodeURIComponent(v.orderNo)}`)}>查看订单</Link>
                  ) : null
                }
              />
            ))}
          </div>
          {page.data.total > PAGE_SIZE && (
            <Pagination
              style={{ marginTop: 16, textAlign: 'right' }}
              current={page.data.pageNum}
              pageSize={PAGE_SIZE}
              total={page.data.total}
              onChange={(n) => go({ pageNum: n })}
              showSizeChanger={false}
            />
          )}
        </>
      )}
    </section>
  );
}
