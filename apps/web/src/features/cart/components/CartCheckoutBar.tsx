import { Button, Checkbox, Popconfirm } from 'antd';
import { useSite } from '../../../site/SiteProvider.tsx';
import type { cartTotals } from '../lib/cart.ts';

/** The bar under the lines: select all, delete selected, clear unbuyable, totals, checkout. */
export function CartCheckoutBar({
  allOn,
  onSelectAll,
  selectedCount,
  removing,
  onRemoveSelected,
  unbuyableCount,
  onRemoveUnbuyable,
  totals,
  guest,
  onCheckout,
}: {
  allOn: boolean;
  onSelectAll: (on: boolean) => void;
  selectedCount: number;
  removing: boolean;
  onRemoveSelected: () => void;
  unbuyableCount: number;
  onRemoveUnbuyable: () => void;
  totals: ReturnType<typeof cartTotals>;
  guest: boolean;
  onCheckout: () => void;
}) {
  const { formatMoney } = useSite();
  return (
    <div className="cart__bar">
      <Checkbox checked={allOn} onChange={(e) => onSelectAll(e.target.checked)}>
        全选
      </Checkbox>
      <Popconfirm title="确定删除选中的商品吗？" disabled={selectedCount === 0} onConfirm={onRemoveSelected}>
        <Button type="link" disabled={selectedCount === 0} loading={removing}>
          删除选中
        </Button>
      </Popconfirm>
      {unbuyableCount > 0 && (
        <Button type="link" onClick={onRemoveUnbuyable}>
          清除失效商品（{unbuyableCount}）
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
        onClick={onCheckout}
        data-testid="checkout"
      >
        {guest ? '登录后结算' : '去结算'}
      </Button>
    </div>
  );
}
