import { describe, expect, it, vi } from 'vitest';
import { detailColumn } from './columns';

describe('detailColumn', () => {
  it('is an option column whose 详情 link opens its row', () => {
    const open = vi.fn();
    const column = detailColumn<{ id: number }>(open);
    expect(column).toMatchObject({ title: '操作', valueType: 'option' });
    const [link] = column.render(null, { id: 7 });
    expect(link?.props.children).toBe('详情');
    link?.props.onClick();
    expect(open).toHaveBeenCalledWith({ id: 7 });
  });
});
