import type { Address } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Input, Result, Skeleton, Tag } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { CheckoutVouchers, useCheckoutVouchers } from '../../voucher/index.ts';
import {
  checkoutLinesQuery,
  fareQuery,
  type Purchase,
  promiseQuery,
  purchaseBasis,
  purchasePayload,
} from '../api.ts';
import { useSubmitOrder } from '../hooks.ts';
import { balanceNote } from '../lib/balance.ts';
import { groupLinesBySource } from '../lib/groups.ts';
import { createRequestIdHolder } from '../lib/idempotency.ts';
import '../order.css';

/**
 * /orderSubmission: the address (composed by the route), the lines with the server's prices
 * grouped per source (one child order each) with freight, totals and submit. The submission
 * carries a requestId made once per visit, so a double click makes one order.
 */
export function OrderSubmission({
  purchase,
  address,
  addressSlot,
  balance,
}: {
  purchase: Purchase;
  address: Address | null;
  addressSlot: ReactNode;
  /** The member's points balance in fen (the points feature reads it); undefined while unknown. */
  balance?: number;
}) {
  const { siteId, site, formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const lines = useQuery(checkoutLinesQuery(siteId ?? '', purchase));
  const needsAddress = (lines.data ?? []).some((l) => l.source.hasAddressTab);
  const fare = useQuery({
    ...fareQuery(siteId ?? '', purchase, address?.id ?? null),
    enabled: !!lines.data && lines.data.length > 0 && (!needsAddress || !!address),
  });
  const promise = useQuery(
    promiseQuery(
      siteId ?? '',
      [...new Set((lines.data ?? []).map((l) => l.source.source))],
      address?.provinceCode ?? '',
    ),
  );
  const [remark, setRemark] = useState('');
  const submission = useSubmitOrder();
  const vouchers = useCheckoutVouchers(
    siteId ?? '',
    purchasePayload(purchase),
    !!lines.data && lines.data.length > 0,
  );
  const requestIds = useRef(createRequestIdHolder()).current;
  // Two clicks before the next render must not send twice (isPending is set only then).
  const busy = useRef(false);

  if (lines.isPending)
    return (
      <section className="page-card">
        <Skeleton active paragraph={{ rows: 8 }} />
      </section>
    );
  if (lines.isError)
    return (
      <section className="page-card">
        <Result status="warning" title="订单信息加载失败" subTitle={lines.error.message} />
      </section>
    );
  if (lines.data.length === 0)
    return (
      <section className="page-card">
        <Result
          status="info"
          title="没有要结算的商品"
          subTitle="购物车中选中的商品已变化，请返回购物车重新选择。"
          extra={
            <Link to={link('/shoppingCart')}>
              <Button type="primary">返回购物车</Button>
            </Link>
          }
        />
      </section>
    );

  const groups = groupLinesBySource(lines.data);
  const invalid = lines.data.filter((l) => !l.isValid);
  const goodsAmount = lines.data.reduce((sum, l) => sum + l.price * l.num, 0);
  const freight = fare.data?.totalFare ?? 0;
  const total = (fare.data?.goodsAmount ?? goodsAmount) + freight - vouchers.saving;
  const note = balance === undefined ? null : balanceNote(total, balance, site?.paywayConf ?? []);
  // On a points-only site an order the balance cannot cover could never be paid.
  const canSubmit =
    invalid.length === 0 &&
    (!needsAddress || !!address) &&
    !fare.isError &&
    note?.kind !== 'short' &&
    vouchers.ready;

  const submit = async () => {
    if (busy.current) return;
    if (needsAddress && !address) {
      void message.warning('请选择收货地址');
      return;
    }
    busy.current = true;
    try {
      const requestId = requestIds.keyFor(
        `${purchaseBasis(purchase)}|${address?.id ?? 0}|${remark}|${vouchers.applied.join(',')}`,
      );
      const result = await submission.mutateAsync({
        purchase,
        addressId: needsAddress ? (address?.id ?? null) : null,
        requestId,
        remark: remark.trim(),
        accVoucherIds: vouchers.applied,
      });
      navigate(link(`/selectPayWay?orderNo=${encodeURIComponent(result.orderNo)}`), { replace: true });
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '提交订单失败');
      busy.current = false;
    }
  };

  return (
    <div className="checkout" data-testid="order-submission">
      {needsAddress && (
        <section className="page-card checkout__block">
          <h3 className="checkout__title">收货地址</h3>
          {addressSlot}
        </section>
      )}
      <section className="page-card checkout__block">
        <h3 className="checkout__title">商品清单</h3>
        {groups.map((group) => {
          const fareLine = fare.data?.list.find((f) => f.source === group.source);
          const promised = promise.data?.find((p) => p.source === group.source);
          return (
            <div className="checkout__group" key={group.key} data-testid="checkout-group">
              <div className="checkout__group-head">
                <Tag color="volcano" bordered={false}>
                  {group.name}
                </Tag>
                <span className="checkout__muted">
                  子订单 · 运费 {fareLine ? formatMoney(fareLine.fare) : '—'}
                </span>
                {promised && (
                  <span className="checkout__promise" data-testid="checkout-promise">
                    {promised.text}
                  </span>
                )}
              </div>
              {group.lines.map((line) => (
                <div className="checkout__line" key={line.key} data-testid="checkout-line">
                  {line.image ? <img src={line.image} alt="" /> : <span className="checkout__noimg" />}
                  <span className="checkout__name">
                    {line.name}
                    <small>规格：{line.specificationValue}</small>
                    {!line.isValid && <Tag color="default">{line.msg || '不可购买'}</Tag>}
                  </span>
                  <span>{formatMoney(line.price)}</span>
                  <span>× {line.num}</span>
                  <strong>
                    {formatMoney(line.price * line.num)}
                    {vouchers.lineSaving(line.specificationId) > 0 && (
                      <small className="voucher-saving" data-testid="line-voucher-saving">
                        <br />券 -{formatMoney(vouchers.lineSaving(line.specificationId))}
                      </small>
                    )}
                  </strong>
                </div>
              ))}
            </div>
          );
        })}
        <div className="checkout__remark">
          <span>订单备注</span>
          <Input
            value={remark}
            onChange={(e) => setRemark(e.target.value)}
            maxLength={200}
            placeholder="选填，给商家留言"
            style={{ maxWidth: 480 }}
          />
        </div>
      </section>
      <section className="page-card checkout__block">
        <h3 className="checkout__title">优惠券</h3>
        <CheckoutVouchers state={vouchers} />
      </section>
      <section className="page-card checkout__sum" data-testid="checkout-sum">
        <dl>
          <dt>商品金额</dt>
          <dd>{formatMoney(goodsAmount)}</dd>
          {fare.data && goodsAmount > fare.data.goodsAmount && (
            <>
              <dt>会员优惠</dt>
              <dd data-testid="checkout-vip">-{formatMoney(goodsAmount - fare.data.goodsAmount)}</dd>
            </>
          )}
          <dt>运费</dt>
          <dd data-testid="checkout-freight">
            {needsAddress && !address ? '选择地址后计算' : fare.isPending ? '计算中…' : formatMoney(freight)}
          </dd>
          <dt>优惠券</dt>
          <dd data-testid="checkout-voucher">-{formatMoney(vouchers.saving)}</dd>
          <dt>应付总额</dt>
          <dd className="checkout__pay" data-testid="checkout-total">
            {formatMoney(total)}
          </dd>
          <dt>可用余额</dt>
          <dd data-testid="checkout-balance">{balance === undefined ? '查询中…' : formatMoney(balance)}</dd>
        </dl>
        {note?.kind === 'short' && (
          <p className="checkout__warn" data-testid="checkout-short">
            {site?.cashUnit || '积分'}余额不足，还差 {formatMoney(note.short)}，无法提交订单。
          </p>
        )}
        {note?.kind === 'shortWechat' && (
          <p className="checkout__muted" data-testid="checkout-short">
            {site?.cashUnit || '积分'}余额不足（还差 {formatMoney(note.short)}），提交后可使用微信支付。
          </p>
        )}
        {address && needsAddress && (
          <p className="checkout__muted">
            寄送至：{address.provinceName} {address.cityName} {address.districtName} {address.detail}
            {/* JSX trims the ideographic space at a line start, so it is written as a string. */}
            {'\u3000'}收货人：{address.consignee} {address.phone}
          </p>
        )}
        {invalid.length > 0 && (
          <p className="checkout__warn">有 {invalid.length} 件商品当前不可购买，请返回购物车调整。</p>
        )}
        {fare.isError && <p className="checkout__warn">{fare.error.message}</p>}
        <Button
          type="primary"
          size="large"
          disabled={!canSubmit}
          loading={submission.isPending}
          onClick={() => void submit()}
          data-testid="submit-order"
        >
          提交订单
        </Button>
      </section>
    </div>
  );
}
