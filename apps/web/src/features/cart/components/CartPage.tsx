import { CART_SAVE_DEBOUNCE_MS } from '@sitemall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Checkbox, Tag } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { SESSION_KEYS, session } from '../../../site/storage.ts';
import { CART_MAX_NUM, guestKeyOf, saveQuantities, useCart, useRemoveCartLines } from '../api.ts';
import {
  cartTotals,
  groupBySource,
  isAllSelected,
  isBuyable,
  maxNum,
  specKey,
  toggleAll,
} from '../lib/cart.ts';
import { setGuestQuantity } from '../lib/guestCart.ts';
import { createSaveQueue } from '../lib/saveQueue.ts';
import { readSeenPrices, rememberPrices } from '../lib/seenPrices.ts';
import type { CartLine } from '../types.ts';
import { CartCheckoutBar } from './CartCheckoutBar.tsx';
import { CartLineRow } from './CartLineRow.tsx';
import { CartEmpty, CartLoadError, CartLoading, CartLoginPrompt } from './CartStates.tsx';
import '../cart.css';
import { keys } from '../../../api/keys.ts';

/** /shoppingCart: lines per source, selection, debounced quantities, live price and stock, totals. */
export function CartPage() {
  const { siteId } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { guest, member, query } = useCart();
  const [nums, setNums] = useState<Map<number, number>>(new Map());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const removal = useRemoveCartLines();
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
      setGuestQuantity(siteId, guestKeyOf(line), num);
      void queryClient.invalidateQueries({ queryKey: keys.cart.guest(siteId ?? '') });
    } else queue.set(line.id, num);
  };

  const remove = async (targets: CartLine[]) => {
    if (targets.length === 0) return;
    // A pending quantity of a removed line must not be saved after it is gone.
    if (!guest) for (const t of targets) queue.drop(t.id);
    try {
      await removal.mutateAsync(targets);
      void message.success('已删除');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '删除失败');
    }
  };

  const toLogin = () => {
    session.set(SESSION_KEYS.loginSuccessBackPath, link('/shoppingCart'));
    navigate(link('/login'));
  };

  const checkout = async () => {
    const ids = lines.filter((l) => selected.has(l.id) && isBuyable(l)).map((l) => l.id);
    if (ids.length === 0) {
      void message.warning('请选择要结算的商品');
      return;
    }
    if (guest) {
      // The guest cart reaches the server at login (spec section 6); come back here afterwards.
      toLogin();
      return;
    }
    await queue.flush();
    navigate(link(`/orderSubmission?${new URLSearchParams({ cartIds: ids.join(',') }).toString()}`));
  };

  if (!guest && !member) return <CartLoginPrompt onLogin={toLogin} />;
  if (query.isPending) return <CartLoading />;
  if (query.isError)
    return <CartLoadError message={query.error.message} onRetry={() => void query.refetch()} />;
  if (lines.length === 0) return <CartEmpty />;

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
          {group.lines.map((line) => (
            <CartLineRow
              key={line.id}
              line={line}
              selected={selected.has(line.id)}
              seenPrice={seen[specKey(line.itemId, line.specificationId)]}
              onSelect={(on) => toggle(line.id, on)}
              onNum={(value) => setNum(line, value)}
              onRemove={() => void remove([line])}
            />
          ))}
        </div>
      ))}
      <CartCheckoutBar
        allOn={allOn}
        onSelectAll={(on) => setSelected(toggleAll(lines, selected, on))}
        selectedCount={selected.size}
        removing={removal.isPending}
        onRemoveSelected={() => void remove(lines.filter((l) => selected.has(l.id)))}
        unbuyableCount={unbuyable.length}
        onRemoveUnbuyable={() => void remove(unbuyable)}
        totals={totals}
        guest={guest}
        onCheckout={() => void checkout()}
      />
    </section>
  );
}
