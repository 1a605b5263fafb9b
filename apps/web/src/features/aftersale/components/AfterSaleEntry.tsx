import { chinaTime } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { sevenDayQuery } from '../api.ts';
import { ApplyDialog } from './ApplyDialog.tsx';
import '../aftersale.css';

const day = (value: string | null) => chinaTime(value, 'YYYY-MM-DD');

/**
 * The order detail's after-sales part (seven-day return check): per line of a received order,
 * the apply button with its deadlines, the open case, or why nothing can be applied for.
 */
export function AfterSaleEntry({ orderNo }: { orderNo: string }) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const check = useQuery({ ...sevenDayQuery(siteId ?? '', orderNo), enabled: !!orderNo });
  const [applying, setApplying] = useState<number | null>(null);
  const lines = check.data?.lines ?? [];
  if (!check.data?.receivedTime || lines.length === 0) return null;
  const line = lines.find((l) => l.lineId === applying);

  return (
    <section className="page-card aftersale-entry" data-testid="aftersale-entry">
      <h3 className="checkout__title">售后服务</h3>
      <p className="checkout__muted">
        自签收起 7 天内可申请退货退款，15 天内可申请换货；虚拟商品不支持退换货。
      </p>
      {lines.map((l) => (
        <div className="aftersale-entry__line" key={l.lineId} data-testid="aftersale-line">
          <span className="aftersale-entry__name">
            {l.name}
            <small>
              规格：{l.specificationValue} · 购买 {l.num} 件
            </small>
          </span>
          <span className="checkout__muted">
            {l.returnDeadline && `退货截止 ${day(l.returnDeadline)}`}
            {l.exchangeDeadline && ` · 换货截止 ${day(l.exchangeDeadline)}`}
          </span>
          {l.openAfterSaleNo ? (
            <Link to={link(`/afterSaleDetail?afterSaleNo=${l.openAfterSaleNo}`)}>
              <Tag color="processing">售后处理中，查看进度</Tag>
            </Link>
          ) : l.kinds.length > 0 ? (
            <Button onClick={() => setApplying(l.lineId)}>申请售后</Button>
          ) : (
            <span className="checkout__muted">{l.msg}</span>
          )}
        </div>
      ))}
      {line && (
        <ApplyDialog
          orderNo={orderNo}
          line={line}
          onClose={() => setApplying(null)}
          onApplied={(no) => {
            setApplying(null);
            navigate(link(`/afterSaleDetail?afterSaleNo=${no}`));
          }}
        />
      )}
    </section>
  );
}
