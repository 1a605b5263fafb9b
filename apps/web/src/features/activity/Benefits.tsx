import { chinaTime } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Empty, List, Result, Skeleton, Tag } from 'antd';
import { useSite } from '../../site/SiteProvider.tsx';
import { benefitsQuery, myBenefitsQuery, useReceiveBenefit } from './benefit-api.ts';
import { phaseAt } from './lib/countdown.ts';
import { useServerNow } from './lib/useServerNow.ts';
import './activity.css';

const STATUS_COLOR: Record<number, string> = { 0: 'green', 1: 'default', [-1]: 'default' };

/** /myBenefits (我的权益, personal center): benefits to receive, and the member's own. */
export function MyBenefits() {
  const { siteId, formatMoney } = useSite();
  const { message } = App.useApp();
  const offers = useQuery({ ...benefitsQuery(siteId ?? ''), enabled: !!siteId });
  const mine = useQuery({ ...myBenefitsQuery(siteId ?? ''), enabled: !!siteId });
  const now = useServerNow(offers.data?.[0]?.timing.currentTime, offers.dataUpdatedAt);
  const receiving = useReceiveBenefit(siteId ?? '');

  const receive = async (id: number) => {
    try {
      await receiving.mutateAsync(id);
      void message.success('领取成功');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '领取失败');
    }
  };

  // The cards' titles are h3s: each benefit's title is an h4 (antd's List.Item.Meta) below them.
  return (
    <section className="page-card benefits" data-testid="benefits">
      <h2 className="page-card__title">我的权益</h2>
      <Card title={<h3 className="benefits__card-title">可领取的权益</h3>} variant="outlined">
        {offers.isPending ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : offers.isError ? (
          <Result status="warning" title="权益加载失败" subTitle={offers.error.message} />
        ) : offers.data.length === 0 ? (
          <Empty description="暂无可领取的权益" />
        ) : (
          <List
            dataSource={offers.data}
            renderItem={(b) => {
              const phase = phaseAt(b.timing, now);
              const open = phase === 0 && !b.received && b.remaining > 0;
              return (
                <List.Item
                  data-testid="benefit-offer"
                  actions={[
                    <Button
                      key="receive"
                      type="primary"
                      danger={open}
                      disabled={!open}
                      loading={receiving.isPending && receiving.variables === b.id}
                      onClick={() => void receive(b.id)}
                      data-testid="benefit-receive"
                    >
                      {b.received
                        ? '已领取'
                        : b.remaining <= 0
                          ? '已领完'
                          : phase === -1
                            ? '即将开始'
                            : '立即领取'}
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    avatar={<img src={b.image} alt="" className="benefit__image" />}
                    title={
                      <>
                        {b.name}：{b.productName}{' '}
                        {b.vipLevelName ? <Tag color="gold">{b.vipLevelName}及以上专享</Tag> : null}
                      </>
                    }
                    description={`价值 ${formatMoney(b.price)} · 剩余 ${b.remaining}/${b.total} 份 · 领取后 ${b.validDays} 天内有效`}
                  />
                </List.Item>
              );
            }}
          />
        )}
      </Card>
      <Card
        title={<h3 className="benefits__card-title">已领取</h3>}
        variant="outlined"
        className="benefits__mine"
      >
        {mine.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : mine.isError ? (
          <Result status="warning" title="我的权益加载失败" subTitle={mine.error.message} />
        ) : (
          <List
            data-testid="benefit-mine"
            dataSource={mine.data}
            locale={{ emptyText: '还没有领取权益' }}
            renderItem={(m) => (
              <List.Item>
                <List.Item.Meta
                  avatar={<img src={m.image} alt="" className="benefit__image" />}
                  title={
                    <>
                      {m.name}：{m.productName} <Tag color={STATUS_COLOR[m.status]}>{m.statusName}</Tag>
                    </>
                  }
                  description={`领取于 ${chinaTime(m.createTime, 'YYYY-MM-DD HH:mm')}，有效期至 ${chinaTime(m.expireTime, 'YYYY-MM-DD HH:mm')}`}
                />
              </List.Item>
            )}
          />
        )}
      </Card>
    </section>
  );
}
