import {
  type ActionType,
  DrawerForm,
  ModalForm,
  ProFormCheckbox,
  ProFormDigit,
  ProFormGroup,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminSite,
  adminApi,
  DEFAULT_AUTO_CONFIRM_DAYS,
  PAY_WAY_NAME,
  PAY_WAYS,
  type SiteFields,
} from '@sitemall/contract';
import { App, Button, Tag } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { call, pageOf } from '../api';
import { minute } from '../format';
import { useSession } from '../session';

const LOGIN_WAYS = { 1: '手机号 + 密码', 2: '手机号 + 短信验证码', 3: '账号 + 密码' };
/** configJson's Y/N switches (spec section 3 plus the named site behaviours). */
const SWITCHES: [string, string][] = [
  ['hideServicePhone', '隐藏客服电话'],
  ['hideExit', '隐藏退出'],
  ['showRegister', '显示注册'],
  ['passwordLogin', '允许密码登录'],
  ['guestCart', '游客购物车'],
  ['afterSalesMenu', '售后菜单'],
  ['serviceInfo', '服务说明'],
  ['customServiceEntry', '客服入口'],
  ['bankBranded', '银行品牌'],
  ['mixedPay', '积分 + 微信混合支付'],
];

type Form = Omit<SiteFields, 'configJson' | 'customServicePcSwitch' | 'isUsable' | 'dingtalkAuthSwitch'> & {
  customServicePcSwitch: boolean;
  isUsable: boolean;
  dingtalkAuthSwitch: boolean;
  returnBar: number;
  /** Days after shipping before receipt confirms itself; empty: the default. */
  autoConfirmDays?: number | null;
  serviceHours?: string;
  bankName?: string;
  reason?: string;
} & Record<string, unknown>;

const toForm = (site: AdminSite): Form => {
  const json = site.configJson as Record<string, unknown>;
  return {
    siteName: site.siteName,
    hotline: site.hotline,
    spareHotline: site.spareHotline,
    loginWay: site.loginWay,
    paywayConf: site.paywayConf as SiteFields['paywayConf'],
    cashUnit: site.cashUnit,
    loginOrder: site.loginOrder,
    customServicePcSwitch: site.customServicePcSwitch === 1,
    isUsable: site.isUsable === 1,
    dingtalkAuthSwitch: site.dingtalkAuthSwitch === 1,
    returnBar: Number(json.returnBar ?? 1),
    autoConfirmDays: typeof json.autoConfirmDays === 'number' ? json.autoConfirmDays : null,
    serviceHours: (json.serviceHours as string | undefined) ?? '',
    bankName: (json.bankName as string | undefined) ?? '',
    ...Object.fromEntries(SWITCHES.map(([key]) => [`sw_${key}`, json[key] === 'Y'])),
  };
};

function fromForm(site: AdminSite, form: Form): SiteFields & { reason?: string } {
  const json = { ...(site.configJson as Record<string, unknown>) };
  for (const [key] of SWITCHES) json[key] = form[`sw_${key}`] ? 'Y' : 'N';
  json.returnBar = form.returnBar;
  if (form.autoConfirmDays) json.autoConfirmDays = form.autoConfirmDays;
  else delete json.autoConfirmDays;
  if (form.serviceHours) json.serviceHours = form.serviceHours;
  if (form.bankName) json.bankName = form.bankName;
  return {
    siteName: form.siteName,
    hotline: form.hotline ?? '',
    spareHotline: form.spareHotline ?? '',
    loginWay: form.loginWay,
    paywayConf: form.paywayConf,
    cashUnit: form.cashUnit,
    loginOrder: form.loginOrder,
    customServicePcSwitch: form.customServicePcSwitch ? 1 : 0,
    isUsable: form.isUsable ? 1 : 0,
    dingtalkAuthSwitch: form.dingtalkAuthSwitch ? 1 : 0,
    configJson: json as SiteFields['configJson'],
    ...(form.reason ? { reason: form.reason } : {}),
  };
}

function EditSite({ site, onSaved }: { site: AdminSite; onSaved: () => void }) {
  const { message } = App.useApp();
  const { can } = useSession();
  const [open, setOpen] = useState(false);
  return (
    <DrawerForm<Form>
      title={`编辑站点 ${site.id}`}
      open={open}
      onOpenChange={setOpen}
      width={640}
      trigger={
        <Button type="link" disabled={!can('sites:manage', site.id)}>
          编辑
        </Button>
      }
      initialValues={toForm(site)}
      drawerProps={{ destroyOnClose: true }}
      onFinish={async (form) => {
        try {
          await call(adminApi.updateSite, { siteId: site.id, ...fromForm(site, form) });
          message.success('已保存，商城前台将显示新配置');
          onSaved();
          return true;
        } catch (e) {
          message.error((e as Error).message);
          return false;
        }
      }}
    >
      <ProFormText name="siteName" label="站点名称" rules={[{ required: true, max: 60 }]} />
      <ProFormGroup>
        <ProFormText name="hotline" label="客服热线" width="sm" rules={[{ max: 40 }]} />
        <ProFormText name="spareHotline" label="备用热线" width="sm" rules={[{ max: 40 }]} />
      </ProFormGroup>
      <ProFormRadio.Group
        name="loginWay"
        label="登录方式"
        options={Object.entries(LOGIN_WAYS).map(([value, label]) => ({ value: Number(value), label }))}
      />
      <ProFormCheckbox.Group
        name="paywayConf"
        label="支付方式"
        options={PAY_WAYS.map((value) => ({ value, label: PAY_WAY_NAME[value] }))}
        rules={[{ required: true, message: '至少选择一种支付方式' }]}
        extra="修改支付方式须填写操作原因"
      />
      <ProFormGroup>
        <ProFormText name="cashUnit" label="积分单位" width="xs" rules={[{ required: true, max: 10 }]} />
        <ProFormText name="loginOrder" label="登录顺序" width="xs" rules={[{ pattern: /^[0-9,]{1,10}$/ }]} />
        <ProFormDigit name="returnBar" label="登录后返回（returnBar）" width="xs" min={0} max={9} />
      </ProFormGroup>
      <ProFormDigit
        name="autoConfirmDays"
        label="自动确认收货（发货后天数）"
        width="xs"
        min={1}
        max={60}
        fieldProps={{ precision: 0, placeholder: String(DEFAULT_AUTO_CONFIRM_DAYS) }}
        extra={`会员未确认收货时，发货后满该天数系统自动确认收货，退换货期限从此起算；留空为 ${DEFAULT_AUTO_CONFIRM_DAYS} 天`}
      />
      <ProFormGroup>
        <ProFormSwitch name="isUsable" label="站点可用" />
        <ProFormSwitch name="customServicePcSwitch" label="PC 客服" />
        <ProFormSwitch name="dingtalkAuthSwitch" label="钉钉授权" />
      </ProFormGroup>
      <ProFormGroup title="站点开关（configJson）">
        {SWITCHES.map(([key, label]) => (
          <ProFormSwitch key={key} name={`sw_${key}`} label={label} />
        ))}
      </ProFormGroup>
      <ProFormGroup>
        <ProFormText name="serviceHours" label="客服时间" width="sm" rules={[{ max: 40 }]} />
        <ProFormText name="bankName" label="银行名称" width="sm" rules={[{ max: 40 }]} />
      </ProFormGroup>
      <ProFormTextArea name="reason" label="操作原因" fieldProps={{ maxLength: 200, showCount: true }} />
    </DrawerForm>
  );
}

/**
 * A new site from a copy of another (configuration, templates, regions, adverts, catalogue), for
 * operators who manage every site; the new site is then edited like any other.
 */
function CopySite({ onSaved }: { onSaved: () => void }) {
  const { me } = useSession();
  const { message } = App.useApp();
  return (
    <ModalForm<{ fromSiteId: number; newSiteId: number; siteName: string; reason: string }>
      title="复制站点新建"
      width={520}
      trigger={<Button type="primary">复制新建站点</Button>}
      modalProps={{ destroyOnClose: true }}
      onFinish={async (fields) => {
        try {
          const made = await call(adminApi.copySite, fields);
          message.success(`站点 ${made.id} ${made.siteName} 已创建`);
          onSaved();
          return true;
        } catch (error) {
          message.error((error as Error).message);
          return false;
        }
      }}
    >
      <ProFormSelect
        name="fromSiteId"
        label="复制自"
        rules={[{ required: true, message: '请选择要复制的站点' }]}
        options={me.sites.map((s) => ({ value: s.id, label: `${s.id} ${s.siteName}` }))}
        extra="复制配置、首页模板、配送地区、广告与专题、类目与在售商品及价格"
      />
      <ProFormDigit
        name="newSiteId"
        label="新站点 ID"
        min={1}
        max={99_999_999}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true, message: '请填写新站点 ID' }]}
      />
      <ProFormText
        name="siteName"
        label="站点名称"
        fieldProps={{ maxLength: 60 }}
        rules={[{ required: true, whitespace: true, message: '请填写站点名称' }]}
      />
      <ProFormTextArea
        name="reason"
        label="操作原因"
        fieldProps={{ maxLength: 200, showCount: true }}
        rules={[{ required: true, whitespace: true, message: '请填写操作原因' }]}
      />
    </ModalForm>
  );
}

/** Sites in the operator's scope with every configuration field of spec section 3. */
export function SitesPage() {
  const { siteId, me, can } = useSession();
  const action = useRef<ActionType>(null);
  // Copying makes a site outside any narrower scope: offered to those who manage all sites.
  const managesAll = me.assignments.some(
    (a) => a.siteIds === null && a.permissions.some((p) => p === 'sites:manage'),
  );
  return (
    <ProTable<AdminSite, { siteId?: number }>
      headerTitle="站点配置"
      rowKey="id"
      actionRef={action}
      toolBarRender={() =>
        managesAll && can('sites:manage')
          ? [<CopySite key="copy" onSaved={() => action.current?.reload()} />]
          : []
      }
      search={false}
      params={{ siteId }}
      request={(params) => pageOf(adminApi.sites, { siteId: params.siteId, pageNum: params.current })}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '没有可管理的站点' }}
      columns={[
        { title: '站点 ID', dataIndex: 'id', width: 90 },
        { title: '站点名称', dataIndex: 'siteName', copyable: true },
        { title: '客服热线', dataIndex: 'hotline' },
        { title: '登录方式', dataIndex: 'loginWay', valueEnum: LOGIN_WAYS },
        {
          title: '支付方式',
          dataIndex: 'paywayConf',
          render: (_, row) => row.paywayConf.map((p) => <Tag key={p}>{PAY_WAY_NAME[p] ?? p}</Tag>),
        },
        { title: '积分单位', dataIndex: 'cashUnit', width: 90 },
        {
          title: '状态',
          dataIndex: 'isUsable',
          valueEnum: { 1: { text: '可用', status: 'Success' }, 0: { text: '停用', status: 'Default' } },
        },
        {
          title: '更新时间',
          dataIndex: 'updatedAt',
          render: (_, row) => minute(row.updatedAt),
        },
        {
          title: '操作',
          valueType: 'option',
          render: (_, row) => [
            <EditSite key="edit" site={row} onSaved={() => action.current?.reload()} />,
            <Link key="templates" to={`/sites/${row.id}/templates`}>
              模板与广告
            </Link>,
          ],
        },
      ]}
    />
  );
}
