import { DeleteOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { CART_SAVE_DEBOUNCE_MS } from '@sitemall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Empty, Popconfirm, Result, Skeleton, Tag } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { SESSION_KEYS, session } from '../../../site/storage.ts';
import { QuantityStepper, quantityLimitMsg } from '../../../ui/QuantityStepper.tsx';
import { CART_MAX_NUM, removeLines, saveQuantities, useCart } from '../api.ts';
import {
  cartTotals,
  groupBySource,
  isAllSelected,
  isBuyable,
  isOverLimit,
  isShort,
  isSoldOut,
  maxNum,
  priceChange,
  specKey,
  toggleAll,
} from '../lib/cart.ts';
import { removeGuestLines, setGuestQuantity } from '../lib/guestCart.ts';
import { createSaveQueue } from '../lib/saveQueue.ts';
import { readSeenPrices, rememberPrices } from '../lib/seenPrices.ts';
import type { CartLine } from '../types.ts';
import '../cart.css';
import { keys } from '../../../api/keys.ts';

const keyOf = (line: CartLine) => ({ productId: line.itemId, specificationId: line.specificationId });

/** /shoppingCart: lines per source, selection, debounced quantities, live price and stock, totals. */
export function CartPage() {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { guest, member, query } = useCart();
  const [nums, setNums] = useState<Map<number, number>>(new Map());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [removing, setRemoving] = useState(false);
  const initialised = useRef(false);
  // The prices seen before this visit; this visit's prices are remembered for the next one.
  const [seen] = useState(() => readSeenPrices(siteId));
  useEffect(() => {
    if (!query.data) return;
    rememberPrices(
      siteId,
      Object.fromEntries(query.data.map((l) => [specKey(l.itemId, l.specificationId), l.price])),
    );
  }, [query.data, siteId]);

  const lines = useMemo<CartLine[]>(
    () => (query.data ?? []).map((l) => (nums.has(l.id) ? { ...l, num: nums.get(l.id) ?? l.num } : l)),
    [query.data, nums],
  );

  // Everything buyable starts selected; lines that become unbuyable leave the selection.
  useEffect(() => {
    if (!query.data) return;
    setSelected((prev) => {
      const buyable = new Set(lines.filter(isBuyable).map((l) => l.id));
      if (!initialised.current) {
        initialised.current = true;
        return new Set(lines.filter((l) => isBuyable(l) && l.isSelected).map((l) => l.id));
      }
      return new Set([...prev].filter((id) => buyable.has(id)));
    });
  }, [query.data, lines]);

  const queue = useMemo(
    () =>
      createSaveQueue<number, number>({
        delayMs: CART_SAVE_DEBOUNCE_MS,
        save: async (changes) => {
          await saveQuantities(siteId ?? '', changes);
          await queryClient.invalidateQueries({ queryKey: keys.cart.all(siteId ?? '') });
        },
        onError: (error) => {
          void message.error(error instanceof Error ? error.message : '数量保存失败');
          setNums(new Map());
          void queryClient.invalidateQueries({ queryKey: keys.cart.all(siteId ?? '') });
        },
      }),
    [siteId, queryClient, message],
  );
  // Leaving the page saves what is pending.
  useEffect(
    () => () => {
      void queue.flush();
    },
    [queue],
  );

  const setNum = (line: CartLine, value: number | null) => {
    const num = Math.max(1, Math.min(Math.floor(Number(value) || 1), maxNum(line, CART_MAX_NUM)));
    setNums((prev) => new Map(prev).set(line.id, num));
    if (guest) {
      setGuestQuantity(siteId, keyOf(line), num);
      void queryClient.invalidateQueries({ queryKey: keys.cart.guest(siteId ?? '') });
    } else queue.set(line.id, num);
  };

  const remove = async (targets: CartLine[]) => {
    if (targets.length === 0) return;
    setRemoving(true);
    try {
      if (guest) {
        removeGuestLines(siteId, targets.map(keyOf));
        await queryClient.invalidateQueries({ queryKey: keys.cart.guest(siteId ?? '') });
      } else {
        for (const t of targets) queue.drop(t.id);
        await removeLines(
          siteId ?? '',
          targets.map((t) => t.id),
        );
        await queryClient.invalidateQueries({ queryKey: keys.cart.all(siteId ?? '') });
      }
      void message.success('已删除');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '删除失败');
    } finally {
      setRemoving(false);
    }
  };

  const checkout = async () => {
    const ids = lines.filter((l) => selected.has(l.id) && isBuyable(l)).map((l) => l.id);
    if (ids.length === 0) {
      void message.warning('请选择要结算的商品');
      return;
    }
    if (guest) {
      // The guest cart reaches the server at login (spec section 6); come back here afterwards.
      session.set(SESSION_KEYS.loginSuccessBackPath, link('/shoppingCart'));
      navigate(link('/login'));
      return;
    }
    await queue.flush();
    navigate(link(`/orderSubmission?${new URLSearchParams({ cartIds: ids.join(',') }).toString()}`));
  };

  if (!guest && !member)
    return (
      <section className="page-card cart" data-testid="cart-page">
        <Result
          icon={<ShoppingCartOutlined />}
          title="登录后查看购物车"
          extra={
            <Button
              type="primary"
              onClick={() => {
                session.set(SESSION_KEYS.loginSuccessBackPath, link('/shoppingCart'));
                navigate(link('/login'));
              }}
            >
              去登录
            </Button>
          }
        />
      </section>
    );
  if (query.isPending)
    return (
      <section className="page-card cart">
        <Skeleton active paragraph={{ rows: 6 }} />
      </section>
    );
  if (query.isError)
    return (
      <section className="page-card cart">
        <Result
          status="warning"
          title="购物车加载失败"
          subTitle={query.error.message}
          extra={<Button onClick={() => void query.refetch()}>重试</Button>}
        />
      </section>
    );
  if (lines.length === 0)
    return (
      <section className="page-card cart" data-testid="cart-page">
        <h2 className="page-card__title">我的购物车</h2>
        <Empty className="cart__empty" description="购物车空空如也" data-testid="cart-empty">
          <Link to={link('/home')}>
            <Button type="primary">去逛逛</Button>
          </Link>
        </Empty>
      </section>
    );

  const groups = groupBySource(lines);
  const totals = cartTotals(lines, selected);
  const allOn = isAllSelected(lines, selected);
  const unbuyable = lines.filter((l) => !isBuyable(l));
  const toggle = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <section className="page-card cart" data-testid="cart-page">
      <h2 className="page-card__title">
        我的购物车 <small className="cart__count">共 {lines.length} 种商品</small>
      </h2>
      {guest && (
        <p className="cart__guest-note">您尚未登录，购物车暂存在本机；登录后将自动合并到您的账户购物车。</p>
      )}
      <div className="cart__head">
        <Checkbox
          checked={allOn}
          onChange={(e) => setSelected(toggleAll(lines, selected, e.target.checked))}
          data-testid="cart-select-all"
        >
          全选
        </Checkbox>
        <span>商品信息</span>
        <span>单价</span>
        <span>数量</span>
        <span>小计</span>
        <span>操作</span>
      </div>
      {groups.map((group) => (
        <div className="cart__group" key={group.key} data-testid="cart-group">
          <div className="cart__group-head">
            <Checkbox
              checked={isAllSelected(group.lines, selected)}
              disabled={group.lines.every((l) => !isBuyable(l))}
              onChange={(e) => setSelected(toggleAll(group.lines, selected, e.target.checked))}
            >
              <Tag color="volcano" bordered={false}>
                {group.name}
              </Tag>
            </Checkbox>
          </div>
          {group.lines.map((line) => {
            const change = priceChange(line.price, seen[specKey(line.itemId, line.specificationId)]);
            const soldOut = isSoldOut(line);
            return (
              <div
                className={`cart__line ${isBuyable(line) ? '' : 'is-disabled'}`}
                key={line.id}
                data-testid="cart-line"
                data-product-id={line.itemId}
              >
                <Checkbox
                  checked={selected.has(line.id)}
                  disabled={!isBuyable(line)}
                  onChange={(e) => toggle(line.id, e.target.checked)}
                  aria-label={`选择 ${line.name}`}
                />
                <Link to={link(`/productDetails?id=${line.itemId}`)} className="cart__product">
                  {line.image ? <img src={line.image} alt="" /> : <span className="cart__noimg" />}
                  <span>
                    <span className="cart__name">{line.name}</span>
                    <span className="cart__spec">规格：{line.specificationValue}</span>
                    {soldOut && <Tag color="default">{line.isOnSale ? '已售罄' : '已下架'}</Tag>}
                    {isShort(line) && <Tag color="orange">库存仅剩 {line.stock} 件</Tag>}
                    {isOverLimit(line) && <Tag color="orange">每单限购 {line.limitNum} 件</Tag>}
                    {!line.isValid && !soldOut && !isShort(line) && !isOverLimit(line) && line.msg && (
                      <Tag color="orange">{line.msg}</Tag>
                    )}
                  </span>
                </Link>
                <span className="cart__price">
                  {formatMoney(line.price)}
                  {change !== 0 && (
                    <small className={change > 0 ? 'cart__up' : 'cart__down'} data-testid="price-change">
                      {change > 0 ? '比加入时贵' : '比加入时降'} {formatMoney(Math.abs(change))}
                    </small>
                  )}
                </span>
                <QuantityStepper
                  value={line.num}
                  max={maxNum(line, CART_MAX_NUM)}
                  disabled={soldOut}
                  onChange={(value) => setNum(line, value)}
                  onOverMax={() =>
                    void message.warning({
                      key: 'quantity-limit',
                      content: quantityLimitMsg(line.stock, line.limitNum, CART_MAX_NUM),
                    })
                  }
                  label={`${line.name} 数量`}
                  testId="cart-num"
                />
                <strong className="cart__subtotal">{formatMoney(line.price * line.num)}</strong>
                <Popconfirm title="确定删除该商品吗？" onConfirm={() => void remove([line])}>
                  <Button type="link" icon={<DeleteOutlined />} aria-label={`删除 ${line.name}`}>
                    删除
                  </Button>
                </Popconfirm>
              </div>
            );
          })}
        </div>
      ))}
      <div className="cart__bar">
        <Checkbox checked={allOn} onChange={(e) => setSelected(toggleAll(lines, selected, e.target.checked))}>
          全选
        </Checkbox>
        <Popconfirm
          title="确定删除选中的商品吗？"
          disabled={selected.size === 0}
          onConfirm={() => void remove(lines.filter((l) => selected.has(l.id)))}
        >
          <Button type="link" disabled={selected.size === 0} loading={removing}>
            删除选中
          </Button>
        </Popconfirm>
        {unbuyable.length > 0 && (
          <Button type="link" onClick={() => void remove(unbuyable)}>
            清除失效商品（{unbuyable.length}）
          </Button>
        )}
        <span className="cart__bar-fill" />
        <span>
          已选 <b data-testid="cart-pieces">{totals.pieces}</b> 件
        </span>
        <span className="cart__total">
          合计：<strong data-testid="cart-total">{formatMoney(totals.amount)}</strong>
        </span>
        <Button
          type="primary"
          size="large"
          disabled={totals.lineCount === 0}
          onClick={() => void checkout()}
          data-testid="checkout"
        >
          {guest ? '登录后结算' : '去结算'}
        </Button>
      </div>
    </section>
  );
}
