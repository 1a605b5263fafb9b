import { Button } from 'antd';

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
