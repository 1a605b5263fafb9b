import {
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import {
  type AdminBenefit,
  adminActivityApi,
  adminPromotionsApi,
  BENEFIT_AUDIENCE_LABEL,
} from '@sitemall/contract';
import dayjs from 'dayjs';
import { call } from '../../api';
import { optionsOf } from '../../format';
import { formTrigger } from '../form-trigger';
import { useWrite } from '../write';
import { defaultWindow, windowOf } from './shared';

interface BenefitFormValues {
  name: string;
  specificationId: number;
  total: number;
  validDays: number;
  window: [string, string];
  audience: 'all' | 'vip';
  vipLevelId?: number;
  enabled: boolean;
}

/** The site's active VIP levels, lowest first, as the audience's choices. */
async function levelOptions(siteId: number) {
  const page = await call(adminPromotionsApi.vipLevels, { siteId });
  return page.list
    .filter((l) => l.status === 'active')
    .map((l) => ({ value: l.id, label: `${l.name}（等级 ${l.rank}）及以上` }));
}

/**
 * Create (no `benefit`) or edit a benefit of the site: the product's specification, the quota
 * (an edit may not go below what members received), how long a received one stays usable, the
 * window (China time) and who may receive it. The server checks all of it again.
 */
export function BenefitForm({
  siteId,
  benefit,
  onDone,
}: {
  siteId: number;
  benefit?: AdminBenefit;
  onDone: () => void;
}) {
  const write = useWrite();
  const received = benefit?.received ?? 0;
  return (
    <ModalForm<BenefitFormValues>
      title={benefit ? `修改权益：${benefit.name}` : '新建权益'}
      width={560}
      trigger={formTrigger({ editing: !!benefit, edit: '修改', create: '新建权益' })}
      modalProps={{ destroyOnClose: true }}
      initialValues={
        benefit
          ? {
              name: benefit.name,
              specificationId: benefit.specificationId,
              total: benefit.total,
              validDays: benefit.validDays,
              window: [benefit.startAt, benefit.endAt],
              audience: benefit.vipLevelId === null ? 'all' : 'vip',
              vipLevelId: benefit.vipLevelId ?? undefined,
              enabled: benefit.enabled,
            }
          : { total: 100, validDays: 30, window: defaultWindow(), audience: 'all', enabled: true }
      }
      onFinish={(v) =>
        write(async () => {
          await call(adminActivityApi.saveBenefit, {
            siteId,
            id: benefit?.id,
            name: v.name,
            specificationId: v.specificationId,
            total: v.total,
            validDays: v.validDays,
            ...windowOf(v.window),
            audience: v.audience,
            vipLevelId: v.audience === 'vip' ? v.vipLevelId : undefined,
            enabled: v.enabled,
          });
          onDone();
        }, '已保存')
      }
    >
      <ProFormText name="name" label="权益名称" rules={[{ required: true, max: 60 }]} />
      <ProFormDigit
        name="specificationId"
        label="商品规格 ID"
        min={1}
        fieldProps={{ precision: 0 }}
        tooltip="该站点在售商品的规格"
        rules={[{ required: true, message: '请填写该站点在售商品的规格 ID' }]}
      />
      <ProFormDigit
        name="total"
        label="权益总数"
        min={Math.max(received, 1)}
        max={1_000_000}
        fieldProps={{ precision: 0 }}
        extra={benefit ? `已领取 ${received} 份，总数不能少于已领取数量` : undefined}
        rules={[{ required: true, message: '请填写权益总数' }]}
      />
      <ProFormDigit
        name="validDays"
        label="领取后有效天数"
        min={1}
        max={3650}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ProFormDateTimeRangePicker
        name="window"
        label="领取时间（北京时间）"
        rules={[
          { required: true, message: '请选择领取时间' },
          {
            validator: (_, value?: [string, string]) =>
              value && !dayjs(value[1]).isAfter(dayjs(value[0]))
                ? Promise.reject(new Error('结束时间须晚于开始时间'))
                : Promise.resolve(),
          },
        ]}
      />
      <ProFormRadio.Group name="audience" label="领取对象" options={optionsOf(BENEFIT_AUDIENCE_LABEL)} />
      <ProFormDependency name={['audience']}>
        {({ audience }) =>
          audience === 'vip' ? (
            <ProFormSelect
              name="vipLevelId"
              label="最低会员等级"
              params={{ siteId }}
              request={() => levelOptions(siteId)}
              rules={[{ required: true, message: '请选择会员等级' }]}
            />
          ) : null
        }
      </ProFormDependency>
      <ProFormSwitch name="enabled" label="上架" />
    </ModalForm>
  );
}
