import { type ActionType, ProTable } from '@ant-design/pro-components';
import { type PendingClaim, adminPromotionsApi as promo } from '@sitemall/contract';
import { Button, Popconfirm } from 'antd';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { minute } from '../../format';
import { useSession } from '../../session';
import { useRun } from '../write';
import { ReasonAction } from './shared';

/** Claims of review templates waiting for an operator: approve (unused) or reject with a reason (void). */
export function Claims() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const run = useRun(() => action.current?.reload());
  const review = (c: PendingClaim, approve: boolean, reason?: string) =>
    run(
      () => call(promo.reviewClaims, { siteId: c.siteId, voucherIds: [c.voucherId], approve, reason }),
      approve ? '已通过' : '已驳回',
    );
  return (
    <ProTable<PendingClaim>
      headerTitle="待审核的领取申请"
      rowKey="voucherId"
      actionRef={action}
      params={{ siteId }}
      search={false}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无待审核的领取申请' }}
      request={(p) => pageOf(promo.pendingClaims, { siteId: p.siteId, pageNum: p.current })}
      columns={[
        { title: '券编号', dataIndex: 'voucherId', width: 80 },
        { title: '站点', dataIndex: 'siteId', width: 70 },
        { title: '优惠券', dataIndex: 'templateName' },
        { title: '会员', dataIndex: 'member', render: (_, c) => `${c.member}（${c.memberId}）` },
        {
          title: '申请时间',
          dataIndex: 'claimTime',
          render: (_, c) => minute(c.claimTime),
        },
        {
          title: '操作',
          valueType: 'option',
          render: (_, c) =>
            can('promotions:manage', c.siteId)
              ? [
                  <Popconfirm key="ok" title="通过该领取申请？" onConfirm={() => review(c, true)}>
                    <Button type="link" size="small">
                      通过
                    </Button>
                  </Popconfirm>,
                  <ReasonAction
                    key="no"
                    label="驳回"
                    danger
                    title={`驳回 ${c.member} 的领取申请`}
                    onSubmit={({ reason }) => review(c, false, reason)}
                  />,
                ]
              : [],
        },
      ]}
    />
  );
}
