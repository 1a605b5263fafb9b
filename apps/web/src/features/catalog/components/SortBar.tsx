import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { SortType } from '../lib/searchQuery.ts';

export interface SortOption<F extends string> {
  field: F;
  label: string;
  /** Clicking again flips the direction (price). */
  isToggle?: boolean;
}

/** JD-style sort tabs: 综合 · 销量 · 价格 ↑↓ · 新品. */
export function SortBar<F extends string>({
  options,
  field,
  type,
  onChange,
  extra,
}: {
  options: readonly SortOption<F>[];
  field: F;
  type: SortType;
  onChange: (field: F, type: SortType) => void;
  extra?: ReactNode;
}) {
  return (
    <div className="sort-bar" role="toolbar" aria-label="排序">
      {options.map((option) => {
        const isActive = option.field === field;
        const nextType: SortType = option.isToggle
          ? isActive
            ? type === 'asc'
              ? 'desc'
              : 'asc'
            : 'asc'
          : 'desc';
        return (
          <button
            key={option.field}
            type="button"
            className={`sort-bar__item ${isActive ? 'is-active' : ''}`}
            aria-pressed={isActive}
            onClick={() => onChange(option.field, nextType)}
          >
            {option.label}
            {option.isToggle && (isActive && type === 'desc' ? <ArrowDownOutlined /> : <ArrowUpOutlined />)}
          </button>
        );
      })}
      <div className="sort-bar__extra">{extra}</div>
    </div>
  );
}
