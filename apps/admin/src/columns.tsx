import { Button, Tag } from 'antd';
import { enumOf } from './format';

/** A ProTable's last column: a 详情 link opening the row (in a drawer the page shows). */
export const detailColumn = <Row,>(open: (row: Row) => void) => ({
  title: '操作',
  valueType: 'option' as const,
  render: (_: unknown, row: Row) => [
    <Button key="detail" type="link" onClick={() => open(row)}>
      详情
    </Button>,
  ],
});

/**
 * A row's `status` as a tag in its colour, searched by the same labels; a status the labels do
 * not know shows as it is. Spread it and add what a page changes (a width).
 */
export const statusColumn = <Status extends string>(
  labels: Record<Status, string>,
  colors: Partial<Record<Status, string>>,
) => ({
  title: '状态',
  dataIndex: 'status',
  valueEnum: enumOf(labels),
  render: (_: unknown, row: { status: string }) => (
    <Tag color={colors[row.status as Status]}>{labels[row.status as Status] ?? row.status}</Tag>
  ),
});

/**
 * A ProTable's `form`: its 查询 button never shows loading. ProTable makes it `loading` while the
 * list loads, and antd ignores a click on a loading button, so a 查询 clicked then (a filter just
 * changed) was lost and the table kept showing the other filter's rows. The list's own requests
 * already let the newest answer win (api.ts).
 */
export const searchForm = <Values extends object>(form: { initialValues?: Values } = {}) => ({
  ...form,
  submitter: { submitButtonProps: { loading: false } },
});
