import {
  type ActionType,
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminLottery,
  adminActivityApi,
  LOTTERY_AUDIENCE_LABEL,
  LOTTERY_PERIOD_LABEL,
} from '@sitemall/contract';
import { Button, Drawer, Space } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { optionsOf, yuan } from '../../format';
import { useSession, useSitesWith } from '../../session';
import { useWrite } from '../write';
import { LotteryDetail } from './LotteryDetail';
import { defaultWindow, EndButton, timingColumns, windowOf } from './shared';

interface LotteryForm {
  siteId: number;
  code: string;
  name: string;
  window: [string, string];
  audience: 'all' | 'invited';
  costYuan: number;
  chances: number;
  period: 'day' | 'activity';
  shareBonus: number;
  budgetYuan?: number | null;
  ruleHtml?: string;
  reason?: string;
}

const toFen = (yuanValue: number | null | undefined) =>
  yuanValue === null || yuanValue === undefined ? null : Math.round(yuanValue * 100);

/** Create or edit a lottery: window, audience, cost per draw, chances per period, budget. */
function LotteryFormModal({ lottery, onDone }: { lottery?: AdminLottery; onDone: () => void }) {
  const sites = useSitesWith('promotions:manage');
  const write = useWrite();
  const initial: Partial<LotteryForm> = lottery
    ? {
        siteId: lottery.siteId,
        code: lottery.code,
        name: lottery.name,
        window: [lottery.startAt, lottery.endAt],
        audience: lottery.audience as LotteryForm['audience'],
        costYuan: lottery.costPoints / 100,
        chances: lottery.chances,
        period: lottery.period as LotteryForm['period'],
        shareBonus: lottery.shareBonus,
        budgetYuan: lottery.budget === null ? null : lottery.budget / 100,
        ruleHtml: lottery.ruleHtml,
      }
    : {
        siteId: sites.initial,
        window: defaultWindow(),
        audience: 'all',
        costYuan: 0,
        chances: 3,
        period: 'day',
        shareBonus: 0,
      };
  return (
    <ModalForm<LotteryForm>
      title={lottery ? `编辑抽奖活动：${lottery.name}` : '新建抽奖活动'}
      width={620}
      trigger={lottery ? <Button type="link">编辑</Button> : <Button type="primary">新建抽奖活动</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={initial}
      onFinish={(form) =>
        write(async () => {
          await call(adminActivityApi.saveLottery, {
            siteId: form.siteId,
            id: lottery?.id,
            code: form.code,
            type: 1,
            name: form.name,
            ruleHtml: form.ruleHtml ?? '',
            ...windowOf(form.window),
            audience: form.audience,
            costPoints: toFen(form.costYuan) ?? 0,
            chances: form.chances,
            period: form.period,
            shareBonus: form.shareBonus,
            budget: toFen(form.budgetYuan) ?? undefined,
            reason: form.reason,
          });
          onDone();
        }, '已保存')
      }
    >
      <ProFormSelect
        name="siteId"
        label="站点"
        options={sites.options}
        rules={[{ required: true }]}
        disabled={!!lottery}
      />
      <Space size="large" style={{ display: 'flex' }}>
        <ProFormText
          name="code"
          label="活动编码"
          width="sm"
          tooltip="前台以编码找到活动，默认活动为 cj001"
          rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,32}$/, message: '字母、数字、_ 或 -' }]}
        />
        <ProFormText name="name" label="活动名称" width="md" rules={[{ required: true, max: 60 }]} />
      </Space>
      <ProFormDateTimeRangePicker name="window" label="活动时间（北京时间）" rules={[{ required: true }]} />
      <ProFormRadio.Group name="audience" label="参与对象" options={optionsOf(LOTTERY_AUDIENCE_LABEL)} />
      <Space size="large" style={{ display: 'flex' }}>
        <ProFormDigit name="costYuan" label="每次消耗积分" min={0} fieldProps={{ precision: 2 }} width="xs" />
        <ProFormDigit
          name="chances"
          label="抽奖次数"
          min={0}
          max={1000}
          fieldProps={{ precision: 0 }}
          width="xs"
        />
        <ProFormSelect name="period" label="次数周期" width="xs" options={optionsOf(LOTTERY_PERIOD_LABEL)} />
        <ProFormDigit
          name="shareBonus"
          label="分享加次"
          min={0}
          max={100}
          fieldProps={{ precision: 0 }}
          width="xs"
        />
      </Space>
      <ProFormDigit
        name="budgetYuan"
        label="积分奖品预算（留空为不限）"
        min={0}
        fieldProps={{ precision: 2 }}
        width="sm"
      />
      <ProFormTextArea name="ruleHtml" label="活动规则" fieldProps={{ maxLength: 5000, rows: 3 }} />
      <ProFormTextArea
        name="reason"
        label="操作原因（修改预算时必填）"
        fieldProps={{ maxLength: 200, rows: 2 }}
      />
    </ModalForm>
  );
}

/** Lottery activities of the operator's sites: window, audience, cost, prizes, budget used. */
export function LotteryPage() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const [open, setOpen] = useState<AdminLottery>();
  const reload = () => action.current?.reload();
  return (
    <>
      <ProTable<AdminLottery, { siteId?: number }>
        headerTitle="抽奖活动"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        search={false}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无抽奖活动' }}
        request={(p) => pageOf(adminActivityApi.lotteries, { siteId: p.siteId, pageNum: p.current })}
        toolBarRender={() =>
          can('promotions:manage') ? [<LotteryFormModal key="new" onDone={reload} />] : []
        }
        columns={[
          { title: '站点', dataIndex: 'siteId', width: 70 },
          { title: '编码', dataIndex: 'code', width: 90 },
          { title: '名称', dataIndex: 'name', width: 180 },
          ...timingColumns<AdminLottery>('活动时间'),
          {
            title: '参与对象',
            dataIndex: 'audience',
            width: 100,
            render: (_, a) =>
              `${LOTTERY_AUDIENCE_LABEL[a.audience as keyof typeof LOTTERY_AUDIENCE_LABEL] ?? a.audience}${
                a.audience === 'invited' ? `（${a.whiteUsers}）` : ''
              }`,
          },
          { title: '每次积分', dataIndex: 'costPoints', width: 90, render: (_, a) => yuan(a.costPoints) },
          {
            title: '次数',
            dataIndex: 'chances',
            width: 90,
            render: (_, a) =>
              `${LOTTERY_PERIOD_LABEL[a.period as keyof typeof LOTTERY_PERIOD_LABEL] ?? a.period} ${a.chances} 次`,
          },
          { title: '奖品数', dataIndex: 'prizes', width: 70, render: (_, a) => a.prizes.length },
          {
            title: '预算（已用/总额）',
            dataIndex: 'budget',
            width: 150,
            render: (_, a) => `${yuan(a.budgetUsed)} / ${a.budget === null ? '不限' : yuan(a.budget)}`,
          },
          {
            title: '操作',
            valueType: 'option',
            width: 190,
            render: (_, a) => [
              <Button key="open" type="link" onClick={() => setOpen(a)}>
                管理
              </Button>,
              can('promotions:manage', a.siteId) ? (
                <LotteryFormModal key="edit" lottery={a} onDone={reload} />
              ) : null,
              can('promotions:manage', a.siteId) && a.timing.status !== 1 ? (
                <EndButton
                  key="end"
                  name={a.name}
                  onEnd={async (reason) => {
                    await call(adminActivityApi.endLottery, { siteId: a.siteId, activityId: a.id, reason });
                    reload();
                  }}
                />
              ) : null,
            ],
          },
        ]}
      />
      <Drawer
        open={!!open}
        width={980}
        title={open ? `${open.name}（${open.code}）` : ''}
        onClose={() => {
          setOpen(undefined);
          reload();
        }}
        destroyOnClose
      >
        {open ? <LotteryDetail lottery={open} /> : null}
      </Drawer>
    </>
  );
}
