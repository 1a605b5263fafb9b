import { type ActionType, ProTable } from '@ant-design/pro-components';
import { type AdminCard, CARD_STATUS_LABEL, adminPromotionsApi as promo } from '@sitemall/contract';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { searchForm, statusColumn } from '../../columns';
import { day, yuan } from '../../format';
import { useSession } from '../../session';
import { useRun } from '../write';
import { ReasonAction } from './shared';

const STATUS_COLOR: Record<string, string> = {
  bound: 'green',
  frozen: 'blue',
  expired: 'default',
  void: 'red',
};

/** Cards by the last four characters (or the whole code) or the member; freeze and unfreeze with a reason. */
export function Cards() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const run = useRun(() => action.current?.reload());
  const freeze = (c: AdminCard, frozen: boolean) => (
    <ReasonAction
      key="freeze"
      label={frozen ? '冻结' : '解冻'}
      danger={frozen}
      title={`${frozen ? '冻结' : '解冻'}卡 ${c.codeMasked}`}
      onSubmit={({ reason }) =>
        run(
          () => call(promo.freezeCard, { siteId: c.siteId, cardId: c.id, frozen, reason }),
          frozen ? '已冻结' : '已解冻',
        )
      }
    />
  );
  return (
    <ProTable<AdminCard, { code?: string; member?: string; status?: string; siteId?: number }>
      form={searchForm()}
      headerTitle="卡查询"
      rowKey="id"
      actionRef={action}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '没有符合条件的卡' }}
      request={(p) =>
        pageOf(promo.cards, {
          siteId: p.siteId,
          code: p.code,
          member: p.member,
          status: p.status,
          pageNum: p.current,
        })
      }
      columns={[
        {
          title: '卡号',
          dataIndex: 'code',
          hideInTable: true,
          fieldProps: { placeholder: '后四位或完整卡号' },
        },
        {
          title: '会员',
          dataIndex: 'member',
          hideInTable: true,
          fieldProps: { placeholder: '会员 id 或手机号' },
        },
        { title: '编号', dataIndex: 'id', search: false, width: 64 },
        { title: '站点', dataIndex: 'siteId', search: false, width: 64 },
        {
          title: '卡号',
          dataIndex: 'codeMasked',
          search: false,
          render: (_, c) => <code>{c.codeMasked}</code>,
        },
        { title: '名称', dataIndex: 'name', search: false },
        { title: '面值', dataIndex: 'faceValue', search: false, render: (_, c) => yuan(c.faceValue) },
        { title: '余额', dataIndex: 'balance', search: false, render: (_, c) => yuan(c.balance) },
        statusColumn(CARD_STATUS_LABEL, STATUS_COLOR),
        { title: '绑定会员', dataIndex: 'boundMember', search: false, render: (_, c) => c.member || '-' },
        {
          title: '到期',
          dataIndex: 'expiresAt',
          search: false,
          render: (_, c) => day(c.expiresAt),
        },
        {
          title: '操作',
          valueType: 'option',
          render: (_, c) =>
            can('promotions:manage', c.siteId)
              ? [
                  ['unsold', 'sold', 'bound'].includes(c.status) ? freeze(c, true) : null,
                  c.status === 'frozen' ? freeze(c, false) : null,
                ]
              : [],
        },
      ]}
    />
  );
}
