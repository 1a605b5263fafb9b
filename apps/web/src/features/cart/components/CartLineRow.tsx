import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Popconfirm, Tag } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { QuantityStepper, quantityLimitMsg } from '../../../ui/QuantityStepper.tsx';
import { CART_MAX_NUM } from '../api.ts';
import { isBuyable, isOverLimit, isShort, isSoldOut, maxNum, priceChange } from '../lib/cart.ts';
import type { CartLine } from '../types.ts';

/** One cart line: selection, product, price (and its change since added), quantity, subtotal, delete. */
export function CartLineRow({
  line,
  selected,
  seenPrice,
  onSelect,
  onNum,
  onRemove,
}: {
  line: CartLine;
  selected: boolean;
  /** The price this visitor saw before this visit, if any. */
  seenPrice: number | undefined;
  onSelect: (on: boolean) => void;
  onNum: (value: number | null) => void;
  onRemove: () => void;
}) {
  const { formatMoney } = useSite();
  const link = useSiteLink();
  const { message } = App.useApp();
  const change = priceChange(line.price, seenPrice);
  const soldOut = isSoldOut(line);
  return (
    <div
      className={`cart__line ${isBuyable(line) ? '' : 'is-disabled'}`}
      data-testid="cart-line"
      data-product-id={line.itemId}
    >
      <Checkbox
        checked={selected}
        disabled={!isBuyable(line)}
        onChange={(e) => onSelect(e.target.checked)}
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
        onChange={onNum}
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
      <Popconfirm title="确定删除该商品吗？" onConfirm={onRemove}>
        <Button type="link" icon={<DeleteOutlined />} aria-label={`删除 ${line.name}`}>
          删除
        </Button>
      </Popconfirm>
    </div>
  );
}
