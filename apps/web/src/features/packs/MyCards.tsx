import { chinaTime, type PackCard } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Input, Result, Skeleton, Table, Tag } from 'antd';
import { useState } from 'react';
import { useSite } from '../../site/SiteProvider.tsx';
import { cardCountQuery, cardPageQuery, cashListQuery, useBindCard } from './api.ts';
import './packs.css';

/** One card's ledger, shown under its row. */
function CashList({ cardId }: { cardId: number }) {
  const { siteId, formatMoney } = useSite();
  const cash = useQuery(cashListQuery(siteId ?? '', cardId));
  if (cash.isPending) return <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  if (cash.isError) return <span className="checkout__warn">{cash.error.message}</span>;
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={cash.data.list}
      data-testid="card-cash"
      columns={[
        { title: '时间', dataIndex: 'time', render: (v: string) => chinaTime(v, 'YYYY-MM-DD HH:mm') },
        { title: '类型', dataIndex: 'typeName' },
        { title: '订单号', dataIndex: 'orderNo', render: (v: string | null) => v ?? '—' },
        {
          title: '变动',
          dataIndex: 'delta',
          render: (v: number) => (v > 0 ? `+${formatMoney(v)}` : formatMoney(v)),
        },
        { title: '余额', dataIndex: 'balanceAfter', render: (v: number) => formatMoney(v) },
      ]}
    />
  );
}

/** /myCards (我的卡包): bind a card by code and PIN; cards with balances and their ledgers. */
export function MyCards() {
  const { siteId, formatMoney } = useSite();
  const { message } = App.useApp();
  const [pageNum, setPageNum] = useState(1);
  const cards = useQuery({ ...cardPageQuery(siteId ?? '', pageNum), enabled: !!siteId });
  const count = useQuery({ ...cardCountQuery(siteId ?? ''), enabled: !!siteId });
  const [code, setCode] = useState('');
  const [pin, setPin] = useState('');
  const binding = useBindCard(siteId ?? '');

  const bind = async () => {
    if (!code.trim() || !pin.trim()) {
      void message.warning('请输入卡号和密码');
      return;
    }
    try {
      const { card } = await binding.mutateAsync({ code: code.trim(), pin: pin.trim() });
      void message.success(`绑定成功：${card.name}`);
      setCode('');
      setPin('');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '绑定失败');
    }
  };

  return (
    <section className="page-card" data-testid="my-cards">
      <h2 className="page-card__title">我的卡包</h2>
      <p className="packs__sum">
        共 {count.data?.count ?? '—'} 张，可用余额{' '}
        <strong data-testid="cards-balance">{count.data ? formatMoney(count.data.balance) : '—'}</strong>
      </p>
      <div className="packs__bind">
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={40}
          placeholder="卡号（16 位）"
          aria-label="卡号"
          style={{ maxWidth: 260 }}
          data-testid="card-code"
        />
        <Input.Password
          value={pin}
          onChange={(e) => setPin(e.target.value)}
          maxLength={12}
          placeholder="卡密码"
          aria-label="卡密码"
          style={{ maxWidth: 180 }}
          data-testid="card-pin"
        />
        <Button
          type="primary"
          loading={binding.isPending}
          onClick={() => void bind()}
          data-testid="card-bind"
        >
          绑定
        </Button>
      </div>
      {cards.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : cards.isError ? (
        <Result status="warning" title="卡包加载失败" subTitle={cards.error.message} />
      ) : cards.data.list.length === 0 ? (
        <Empty description="暂无礼品卡，绑定后可用于支付订单" />
      ) : (
        <Table<PackCard>
          rowKey="id"
          dataSource={cards.data.list}
          expandable={{ expandedRowRender: (card) => <CashList cardId={card.id} /> }}
          pagination={{
            current: cards.data.pageNum,
            pageSize: cards.data.pageSize,
            total: cards.data.total,
            onChange: setPageNum,
            hideOnSinglePage: true,
          }}
          onRow={() => ({ 'data-testid': 'card-row' }) as never}
          columns={[
            { title: '卡名称', dataIndex: 'name' },
            { title: '卡号', dataIndex: 'codeMasked' },
            { title: '面值', dataIndex: 'faceValue', render: (v: number) => formatMoney(v) },
            {
              title: '余额',
              dataIndex: 'balance',
              render: (v: number) => <strong data-testid="card-balance">{formatMoney(v)}</strong>,
            },
            {
              title: '状态',
              dataIndex: 'statusName',
              render: (v: string) => <Tag bordered={false}>{v}</Tag>,
            },
            {
              title: '有效期至',
              dataIndex: 'expireTime',
              render: (v: string) => chinaTime(v, 'YYYY-MM-DD'),
            },
          ]}
        />
      )}
    </section>
  );
}
