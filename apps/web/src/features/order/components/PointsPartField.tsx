import { Checkbox, InputNumber } from 'antd';
import { fenText, yuanToFen } from '../lib/wechat.ts';

/**
 * 使用积分抵扣: the points part of a mixed payment (points + WeChat), in fen, entered in the
 * site's cashUnit with two decimals. The caller validates it (pointsPartError) and passes error.
 */
export function PointsPartField({
  isOn,
  onToggle,
  pointsFen,
  onChange,
  maxFen,
  cashUnit,
  error,
}: {
  isOn: boolean;
  onToggle: (isOn: boolean) => void;
  pointsFen: number | null;
  onChange: (fen: number | null) => void;
  maxFen: number;
  cashUnit: string;
  error: string | null;
}) {
  return (
    <div className="pay__points" data-testid="points-part">
      <Checkbox
        checked={isOn}
        disabled={maxFen <= 0}
        onChange={(e) => onToggle(e.target.checked)}
        data-testid="points-part-toggle"
      >
        使用积分抵扣
      </Checkbox>
      {isOn && (
        <InputNumber<number>
          value={pointsFen === null ? null : pointsFen / 100}
          onChange={(value) => onChange(yuanToFen(value))}
          precision={2}
          min={0}
          step={1}
          addonAfter={cashUnit || undefined}
          status={error ? 'error' : undefined}
          aria-label="积分抵扣数额"
          data-testid="points-part-input"
        />
      )}
      <span className="checkout__muted">
        {maxFen > 0 ? `最多可抵扣 ${fenText(maxFen)} ${cashUnit}` : '积分余额不足，无法抵扣'}
      </span>
      {isOn && error && (
        <span className="checkout__warn" data-testid="points-part-error">
          {error}
        </span>
      )}
    </div>
  );
}
