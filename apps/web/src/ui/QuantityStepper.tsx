import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, InputNumber, Space } from 'antd';
import './ui.css';

/**
 * Why no more pieces can be taken, in the server's words (cart and order refusals), so the
 * page and the server say the same thing: the bound that binds first among stock, the
 * purchase limit (0 = none) and the most one line may hold.
 */
export function quantityLimitMsg(
  stock: number,
  limitNum: number,
  lineMax = Number.POSITIVE_INFINITY,
): string {
  if (stock <= 0) return '该规格已售罄';
  const limit = limitNum > 0 ? limitNum : Number.POSITIVE_INFINITY;
  const bound = Math.min(stock, limit, lineMax);
  if (limit === bound) return `该商品每单限购 ${limitNum} 件`;
  if (stock === bound) return `库存不足，仅剩 ${stock} 件`;
  return `每种商品最多购买 ${lineMax} 件`;
}

/** A typed or stepped quantity as a whole number of at least 1; NaN and empty become 1. */
export const wholeQuantity = (value: number | string | null | undefined): number => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1;
};

/**
 * − [n] + as on JD and Tmall. The number stays within 1..max: typing above max calls onOverMax
 * at once (so the page says why), and the field settles on max when it loses focus.
 */
export function QuantityStepper({
  value,
  max,
  onChange,
  onOverMax,
  label,
  disabled = false,
  testId,
}: {
  value: number;
  max: number;
  onChange: (value: number) => void;
  onOverMax?: () => void;
  /** Names the field for assistive technology, e.g. 购买数量. */
  label: string;
  disabled?: boolean;
  testId?: string;
}) {
  const top = Math.max(1, max);
  const set = (next: number | string | null) => {
    const n = Math.min(wholeQuantity(next), top);
    if (n !== value) onChange(n);
  };
  return (
    <Space.Compact className="stepper">
      <Button
        className="stepper__button"
        icon={<MinusOutlined />}
        aria-label="数量减一"
        disabled={disabled || value <= 1}
        onClick={() => set(value - 1)}
      />
      <InputNumber
        className="stepper__input"
        controls={false}
        min={1}
        max={top}
        precision={0}
        value={value}
        disabled={disabled}
        onChange={set}
        onInput={(text) => {
          if (wholeQuantity(text) > top) onOverMax?.();
        }}
        aria-label={label}
        data-testid={testId}
      />
      <Button
        className="stepper__button"
        icon={<PlusOutlined />}
        aria-label="数量加一"
        disabled={disabled || value >= top}
        onClick={() => set(value + 1)}
      />
    </Space.Compact>
  );
}
