import { describe, expect, it, vi } from 'vitest';
import { detailColumn, statusColumn } from './columns';

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

describe('statusColumn', () => {
  it('is searched by the labels and shows a status as a tag in its colour', () => {
    const column = statusColumn({ draft: '草稿', active: '进行中' }, { active: 'green' });
    expect(column).toMatchObject({ dataIndex: 'status', valueEnum: { draft: { text: '草稿' } } });
    const tag = column.render(null, { status: 'active' });
    expect(tag.props).toMatchObject({ color: 'green', children: '进行中' });
    expect(column.render(null, { status: 'unknown' }).props.children).toBe('unknown');
  });
});
