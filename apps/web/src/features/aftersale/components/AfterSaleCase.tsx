import { type AfterSaleDetail, chinaTime, fenToYuan } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Form, Input, Popconfirm, Result, Skeleton, Tag, Timeline } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { cancelCase, caseQuery, commentsQuery, sendComment, shipReturn } from '../api.ts';
import '../aftersale.css';
import { useAction } from '../../../api/action.ts';
import { keys } from '../../../api/keys.ts';

const time = (value: string | null) => chinaTime(value) || '—';
const ACTOR: Record<string, string> = { member: '我', operator: '商家', system: '系统' };
const CANCELLABLE = ['applied', 'approved', 'awaiting_return'];

/** A member's step on a case (ship the return, message, withdraw); the case is re-read either way. */
const useCaseAction = (siteId: string) => useAction(keys.afterSale.all(siteId));

/** The return parcel form: shown while the goods are awaited and no parcel was given. */
function ReturnParcelForm({ kase }: { kase: AfterSaleDetail }) {
  const { siteId } = useSite();
  const act = useCaseAction(siteId ?? '');
  const [form] = Form.useForm<{ company: string; trackingNo: string }>();
  return (
    <section className="page-card" data-testid="return-parcel-form">
      <h3 className="checkout__title">填写退货物流</h3>
      <p className="checkout__muted">
        请在 {time(kase.returnDeadline)} 前寄回商品并填写物流单号，逾期售后申请将自动关闭。
      </p>
      <Form
        form={form}
        layout="inline"
        onFinish={(v) =>
          void act(
            () => shipReturn(siteId ?? '', kase.afterSaleNo, v.company, v.trackingNo),
            '退货物流已提交',
          )
        }
      >
        <Form.Item name="company" label="物流公司" rules={[{ required: true, message: '请填写物流公司' }]}>
          <Input maxLength={40} placeholder="如：顺丰速运" />
        </Form.Item>
        <Form.Item
          name="trackingNo"
          label="运单号"
          rules={[
            { required: true, message: '请填写运单号' },
            { pattern: /^[A-Za-z0-9-]{6,40}$/, message: '运单号须为 6-40 位字母、数字或 -' },
          ]}
        >
          <Input maxLength={40} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          提交物流
        </Button>
      </Form>
    </section>
  );
}

/** The message thread with the merchant. */
function Thread({ afterSaleNo }: { afterSaleNo: string }) {
  const { siteId } = useSite();
  const act = useCaseAction(siteId ?? '');
  const thread = useQuery(commentsQuery(siteId ?? '', afterSaleNo));
  const [text, setText] = useState('');
  const list = thread.data?.list ?? [];
  return (
    <section className="page-card" data-testid="aftersale-thread">
      <h3 className="checkout__title">协商留言</h3>
      {list.length === 0 ? (
        <p className="checkout__muted">暂无留言</p>
      ) : (
        <ul className="aftersale-thread">
          {list.map((c) => (
            <li key={c.id}>
              <b>{c.author === 'member' ? '我' : '商家'}</b>：{c.content}
              <br />
              <small className="checkout__muted">{time(c.createTime)}</small>
            </li>
          ))}
        </ul>
      )}
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={500}
        rows={2}
        placeholder="给商家留言"
        aria-label="留言内容"
      />
      <Button
        style={{ marginTop: 8 }}
        disabled={!text.trim()}
        onClick={() =>
          void act(() => sendComment(siteId ?? '', afterSaleNo, text), '留言已发送').then((sent) => {
            if (sent) setText('');
          })
        }
      >
        发送留言
      </Button>
    </section>
  );
}

/** /afterSaleDetail?afterSaleNo=: the case, its progress, the return parcel and the thread. */
export function AfterSaleCase({ afterSaleNo }: { afterSaleNo: string }) {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const act = useCaseAction(siteId ?? '');
  const query = useQuery({ ...caseQuery(siteId ?? '', afterSaleNo), enabled: !!afterSaleNo });
  if (!afterSaleNo) return <Result status="404" title="缺少售后单号" />;
  if (query.isError) return <Result status="warning" title="售后单不存在或无法查看" />;
  const kase = query.data;
  if (!kase) return <Skeleton active paragraph={{ rows: 8 }} />;
  const parcel = kase.returnParcel;
  return (
    <div className="aftersale-case" data-testid="aftersale-case">
      <section className="page-card">
        <h2 className="page-card__title">
          售后详情{' '}
          <Tag color={kase.isOpen ? 'processing' : 'default'} data-testid="aftersale-status">
            {kase.statusName}
          </Tag>
          {CANCELLABLE.includes(kase.status) && !kase.returnParcel && (
            <Popconfirm
              title="确定撤销该售后申请吗？"
              onConfirm={() => act(() => cancelCase(siteId ?? '', afterSaleNo), '售后申请已撤销')}
            >
              <Button style={{ float: 'right' }}>撤销申请</Button>
            </Popconfirm>
          )}
        </h2>
        <Descriptions size="small" column={3} bordered>
          <Descriptions.Item label="售后单号">{kase.afterSaleNo}</Descriptions.Item>
          <Descriptions.Item label="售后类型">{kase.kindName}</Descriptions.Item>
          <Descriptions.Item label="申请时间">{time(kase.createTime)}</Descriptions.Item>
          <Descriptions.Item label="商品" span={2}>
            {kase.name}（{kase.specificationValue}）× {kase.qty}
          </Descriptions.Item>
          <Descriptions.Item label="订单号">
            <Link to={link(`/orderDetail?orderNo=${kase.orderNo}`)}>{kase.orderNo}</Link>
          </Descriptions.Item>
          <Descriptions.Item label="售后原因">{kase.reason}</Descriptions.Item>
          <Descriptions.Item label="问题描述" span={2}>
            {kase.description || '—'}
            {kase.pics.length > 0 && <span className="checkout__muted">（图片 {kase.pics.length} 张）</span>}
          </Descriptions.Item>
          <Descriptions.Item label="退回积分">
            <span data-testid="aftersale-refund-points">{formatMoney(kase.refundPoints)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="退回现金">¥{fenToYuan(kase.refundCash)}</Descriptions.Item>
          <Descriptions.Item label="审核说明">{kase.auditNote || '—'}</Descriptions.Item>
        </Descriptions>
      </section>
      {kase.status === 'awaiting_return' && !parcel && <ReturnParcelForm kase={kase} />}
      <div className="aftersale-case__cols">
        <section className="page-card">
          <h3 className="checkout__title">售后进度</h3>
          <Timeline
            items={[...kase.steps].reverse().map((s) => ({
              children: (
                <span>
                  <b>{s.statusName}</b>（{ACTOR[s.actor] ?? s.actor}）{s.note}
                  <br />
                  <small className="checkout__muted">{time(s.createTime)}</small>
                </span>
              ),
            }))}
          />
          {(parcel || kase.reshipParcel) && (
            <Descriptions size="small" column={1} title="物流信息">
              {parcel && (
                <Descriptions.Item label="退回包裹">
                  {parcel.company} {parcel.trackingNo}（{time(parcel.shipTime)}）
                </Descriptions.Item>
              )}
              {kase.reshipParcel && (
                <Descriptions.Item label="换货包裹">
                  {kase.reshipParcel.company} {kase.reshipParcel.trackingNo}
                </Descriptions.Item>
              )}
            </Descriptions>
          )}
        </section>
        <Thread afterSaleNo={afterSaleNo} />
      </div>
    </div>
  );
}
