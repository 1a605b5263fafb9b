import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { ModalForm, ProFormRadio, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import {
  ADVERT_LINK,
  ADVERT_POSITION_LABEL,
  ADVERT_POSITIONS,
  ADVERT_TYPE_LABEL,
  type AdminAdvert,
  adminTemplatesApi,
  type FootTemplate,
  type HeadTemplate,
  PICTURE_URL,
  type SaveAdvertBody,
  type SiteTemplates,
  TEMPLATES_MSG,
} from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  Popconfirm,
  Result,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { call } from '../../api';
import { useSession, useSitesWith } from '../../session';
import { useWrite } from '../write';
import { StorefrontPreview } from './StorefrontPreview';

/**
 * 模板与广告 of one site (under 站点配置): the head and foot templates as a form, the adverts of
 * each position, and beside them a live preview of the storefront header, menu and footer that
 * follows every keystroke, unsaved advert edits included.
 */

type Position = (typeof ADVERT_POSITIONS)[number];
interface TemplateForm {
  head: HeadTemplate;
  foot: FootTemplate;
  reason?: string;
}
type AdvertForm = Omit<SaveAdvertBody, 'siteId' | 'id' | 'position'>;

/** A picture address as the server accepts it, and a warning when the picture does not load. */
const pictureRules: Rule[] = [
  { pattern: PICTURE_URL, message: TEMPLATES_MSG.badPicture },
  {
    warningOnly: true,
    validator: (_, value: string | undefined) =>
      !value || !PICTURE_URL.test(value)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const img = new Image();
            img.onload = () => resolve();
            img.onerror = () => reject(new Error('图片无法加载，请检查地址'));
            img.src = value;
          }),
  },
];

/**
 * The head and foot templates as the form holds them (fields not yet mounted taken from the
 * saved ones), in the storefront's shape: what the preview draws and what "unsaved" compares.
 */
function templatesOf(values: Partial<TemplateForm> | undefined, saved: SiteTemplates) {
  const head = { ...saved.head, ...values?.head };
  const foot = { ...saved.foot, ...values?.foot };
  return {
    head: { photo: head.photo ?? '', note: head.note ?? '' },
    foot: {
      list: (foot.list ?? []).filter(Boolean).map((item) => ({ src: item.src ?? '', name: item.name ?? '' })),
      photo: foot.photo ?? '',
      note: foot.note ?? '',
    },
  };
}

/** A picture field with its thumbnail. */
function PictureField({ name, label, extra }: { name: (string | number)[]; label: string; extra?: string }) {
  const form = Form.useFormInstance();
  const value = Form.useWatch(name, form) as string | undefined;
  return (
    <Form.Item label={label} extra={extra} required={false}>
      <Space align="start">
        <Form.Item name={name} noStyle rules={pictureRules}>
          <Input placeholder="/media/… 或 https://…" maxLength={500} style={{ width: 340 }} allowClear />
        </Form.Item>
        {value && PICTURE_URL.test(value) && (
          <img src={value} alt="" style={{ height: 32, maxWidth: 96, border: '1px solid #eee' }} />
        )}
      </Space>
    </Form.Item>
  );
}

function TemplateEditor({
  data,
  form,
  canManage,
  onSaved,
}: {
  data: SiteTemplates;
  form: ReturnType<typeof Form.useForm<TemplateForm>>[0];
  canManage: boolean;
  onSaved: (answer: SiteTemplates) => void;
}) {
  const write = useWrite();
  const [saving, setSaving] = useState(false);
  const values = Form.useWatch([], form) as TemplateForm | undefined;
  const shown = values && templatesOf(values, data);
  const dirty = !!shown && JSON.stringify(shown) !== JSON.stringify(templatesOf(data, data));
  const save = async (form: TemplateForm) => {
    setSaving(true);
    await write(
      async () => onSaved(await call(adminTemplatesApi.saveTemplates, { siteId: data.siteId, ...form })),
      '模板已保存，商城前台将显示新内容',
    );
    setSaving(false);
  };
  return (
    <Form<TemplateForm>
      form={form}
      layout="vertical"
      disabled={!canManage}
      initialValues={{ head: data.head, foot: data.foot }}
      onFinish={save}
    >
      <Tabs
        items={[
          {
            key: 'head',
            label: '页头模板',
            children: (
              <>
                <Form.Item
                  name={['head', 'note']}
                  label="搜索框提示文字"
                  rules={[{ max: 40, message: '最多 40 个字' }]}
                  extra="显示在商城页头搜索框中；留空时显示“搜索商品”"
                >
                  <Input maxLength={40} showCount placeholder="如：搜索积分好礼，如 蓝牙耳机" />
                </Form.Item>
                <PictureField name={['head', 'photo']} label="首页横幅图片" extra="显示在首页分类菜单旁" />
              </>
            ),
          },
          {
            key: 'foot',
            label: '页脚模板',
            children: (
              <>
                <Form.Item label="服务保障（图标与名称，最多 8 项）" required={false}>
                  <Form.List name={['foot', 'list']}>
                    {(fields, { add, remove, move }) => (
                      <>
                        {fields.map((field, index) => (
                          <Space key={field.key} align="start" style={{ display: 'flex' }}>
                            <Form.Item
                              name={[field.name, 'name']}
                              rules={[
                                { required: true, whitespace: true, message: TEMPLATES_MSG.blankFeature },
                                { max: 20, message: '最多 20 个字' },
                              ]}
                            >
                              <Input placeholder="名称，如 正品保障" maxLength={20} style={{ width: 130 }} />
                            </Form.Item>
                            <Form.Item name={[field.name, 'src']} rules={pictureRules}>
                              <Input placeholder="图标地址" maxLength={500} style={{ width: 200 }} />
                            </Form.Item>
                            <Button
                              aria-label="上移"
                              icon={<ArrowUpOutlined />}
                              disabled={index === 0}
                              onClick={() => move(index, index - 1)}
                            />
                            <Button
                              aria-label="删除"
                              icon={<DeleteOutlined />}
                              onClick={() => remove(field.name)}
                            />
                          </Space>
                        ))}
                        <Button
                          icon={<PlusOutlined />}
                          disabled={fields.length >= 8}
                          onClick={() => add({ name: '', src: '' })}
                        >
                          添加服务项
                        </Button>
                      </>
                    )}
                  </Form.List>
                </Form.Item>
                <PictureField name={['foot', 'photo']} label="二维码图片" />
                <Form.Item
                  name={['foot', 'note']}
                  label="页脚说明"
                  rules={[{ max: 2000, message: '最多 2000 个字' }]}
                  extra="可用 HTML（段落、加粗、链接）；脚本、样式和表单不会显示"
                >
                  <Input.TextArea rows={4} maxLength={2000} showCount />
                </Form.Item>
              </>
            ),
          },
        ]}
      />
      <Form.Item name="reason" label="操作原因（选填，记入审计日志）">
        <Input maxLength={200} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!canManage || !dirty}>
          保存模板
        </Button>
        <Button disabled={!dirty} onClick={() => form.setFieldsValue({ head: data.head, foot: data.foot })}>
          撤销修改
        </Button>
        {dirty && <Tag color="orange">有未保存的修改，预览已按修改显示</Tag>}
      </Space>
    </Form>
  );
}

/** Add or edit an advert; what is typed shows in the preview before it is saved. */
function AdvertModal({
  siteId,
  position,
  advert,
  onDraft,
  onSaved,
}: {
  siteId: number;
  position: Position;
  advert?: AdminAdvert;
  onDraft: (draft: AdminAdvert | null) => void;
  onSaved: (answer: SiteTemplates) => void;
}) {
  const write = useWrite();
  const base: AdminAdvert = advert ?? {
    id: 0,
    position,
    type: 1,
    title: '',
    adName: '',
    url: '',
    image: '',
    sort: Number.MAX_SAFE_INTEGER,
    isEnabled: true,
  };
  return (
    <ModalForm<AdvertForm>
      title={advert ? `编辑广告：${advert.title}` : `添加${ADVERT_POSITION_LABEL[position]}广告`}
      width={520}
      trigger={
        advert ? (
          <Button type="link" size="small">
            编辑
          </Button>
        ) : (
          <Button type="primary" icon={<PlusOutlined />}>
            添加广告
          </Button>
        )
      }
      modalProps={{ destroyOnClose: true, afterClose: () => onDraft(null) }}
      initialValues={{
        type: base.type as 1 | 2,
        title: base.title,
        adName: base.adName,
        url: base.url,
        image: base.image,
        isEnabled: base.isEnabled,
      }}
      onValuesChange={(_, all) => onDraft({ ...base, ...all })}
      onFinish={(form) =>
        write(
          async () =>
            onSaved(
              await call(adminTemplatesApi.saveAdvert, {
                siteId,
                id: advert?.id,
                position,
                ...form,
                url: form.url ?? '',
                image: form.image ?? '',
              }),
            ),
          '广告已保存',
        )
      }
    >
      <ProFormRadio.Group
        name="type"
        label="类型"
        options={[
          { value: 1, label: '商品专题（打开专题商品列表）' },
          { value: 2, label: '外部链接' },
        ]}
      />
      <ProFormText
        name="title"
        label="标题（显示在导航上）"
        fieldProps={{ maxLength: 20, showCount: true }}
        rules={[{ required: true, whitespace: true, message: '请填写广告标题' }]}
      />
      <ProFormText
        name="adName"
        label="广告名称（悬停提示、专题页标题）"
        fieldProps={{ maxLength: 40 }}
        rules={[{ required: true, whitespace: true, message: '请填写广告名称' }]}
      />
      <ProFormText
        name="url"
        label="链接"
        dependencies={['type']}
        fieldProps={{ maxLength: 500, placeholder: 'https://…' }}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              getFieldValue('type') !== 2 || ADVERT_LINK.test((value ?? '').trim())
                ? Promise.resolve()
                : Promise.reject(new Error(TEMPLATES_MSG.badLink)),
          }),
        ]}
        extra="外部链接广告必填；商品专题不用链接"
      />
      <ProFormText
        name="image"
        label="图片"
        fieldProps={{ maxLength: 500, placeholder: '/media/… 或 https://…（可不填）' }}
        rules={pictureRules}
      />
      <ProFormSwitch name="isEnabled" label="上线" />
    </ModalForm>
  );
}

function AdvertTable({
  data,
  canManage,
  onDraft,
  onSaved,
}: {
  data: SiteTemplates;
  canManage: boolean;
  onDraft: (draft: AdminAdvert | null) => void;
  onSaved: (answer: SiteTemplates) => void;
}) {
  const write = useWrite();
  const [position, setPosition] = useState<Position>('menu');
  const rows = data.adverts.filter((a) => a.position === position);
  const move = (index: number, to: number) => {
    const ids = rows.map((r) => r.id);
    [ids[index], ids[to]] = [ids[to] as number, ids[index] as number];
    void write(
      async () => onSaved(await call(adminTemplatesApi.orderAdverts, { siteId: data.siteId, position, ids })),
      '广告顺序已保存',
    );
  };
  const toggle = (ad: AdminAdvert, isEnabled: boolean) =>
    void write(
      async () =>
        onSaved(
          await call(adminTemplatesApi.saveAdvert, {
            siteId: data.siteId,
            id: ad.id,
            position,
            type: ad.type as 1 | 2,
            title: ad.title,
            adName: ad.adName,
            url: ad.url,
            image: ad.image,
            isEnabled,
          }),
        ),
      isEnabled ? '广告已上线' : '广告已下线',
    );
  const remove = (ad: AdminAdvert) =>
    write(
      async () => onSaved(await call(adminTemplatesApi.deleteAdvert, { siteId: data.siteId, id: ad.id })),
      '广告已删除',
    );
  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Segmented<Position>
          value={position}
          onChange={setPosition}
          options={ADVERT_POSITIONS.map((p) => ({
            value: p,
            label: `${ADVERT_POSITION_LABEL[p]} ${data.adverts.filter((a) => a.position === p).length}`,
          }))}
        />
        {canManage && (
          <AdvertModal siteId={data.siteId} position={position} onDraft={onDraft} onSaved={onSaved} />
        )}
      </Space>
      {position === 'menu' && (
        <Typography.Paragraph type="secondary">
          导航菜单的上线广告按此顺序显示在商城页头分类栏（home-menu-template）。
        </Typography.Paragraph>
      )}
      <Table<AdminAdvert>
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: '该位置还没有广告' }}
        columns={[
          {
            title: '顺序',
            width: 80,
            render: (_, ad, index) => (
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  aria-label={`上移 ${ad.title}`}
                  icon={<ArrowUpOutlined />}
                  disabled={!canManage || index === 0}
                  onClick={() => move(index, index - 1)}
                />
                <Button
                  type="text"
                  size="small"
                  aria-label={`下移 ${ad.title}`}
                  icon={<ArrowDownOutlined />}
                  disabled={!canManage || index === rows.length - 1}
                  onClick={() => move(index, index + 1)}
                />
              </Space>
            ),
          },
          {
            title: '广告',
            dataIndex: 'title',
            render: (_, ad) => (
              <Space align="start">
                {ad.image && <img src={ad.image} alt="" style={{ height: 32, maxWidth: 56 }} />}
                <span style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
                  <span>
                    <Typography.Text strong>{ad.title}</Typography.Text>
                    <Tag style={{ marginLeft: 8 }} color={ad.type === 2 ? 'blue' : 'green'}>
                      {ADVERT_TYPE_LABEL[ad.type] ?? ad.type}
                    </Tag>
                  </span>
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 240 }}>
                    {ad.adName} ·{' '}
                    {ad.type === 2 ? (
                      <a href={ad.url} target="_blank" rel="noopener noreferrer" title={ad.url}>
                        {ad.url}
                      </a>
                    ) : (
                      `专题 #${ad.id}`
                    )}
                  </Typography.Text>
                </span>
              </Space>
            ),
          },
          {
            title: '上线',
            dataIndex: 'isEnabled',
            width: 56,
            render: (_, ad) => (
              <Switch
                size="small"
                aria-label={`上线 ${ad.title}`}
                checked={ad.isEnabled}
                disabled={!canManage}
                onChange={(on) => toggle(ad, on)}
              />
            ),
          },
          {
            title: '操作',
            width: 92,
            render: (_, ad) =>
              canManage && (
                <Space size={0}>
                  <AdvertModal
                    siteId={data.siteId}
                    position={position}
                    advert={ad}
                    onDraft={onDraft}
                    onSaved={onSaved}
                  />
                  <Popconfirm
                    title={`删除广告「${ad.title}」？`}
                    description="删除后商城前台不再显示，专题商品关联一并删除"
                    okText="删除"
                    okButtonProps={{ danger: true }}
                    cancelText="取消"
                    onConfirm={() => remove(ad)}
                  >
                    <Button
                      type="text"
                      size="small"
                      danger
                      title="删除"
                      aria-label={`删除 ${ad.title}`}
                      icon={<DeleteOutlined />}
                    />
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
    </>
  );
}

export function SiteTemplatesPage() {
  const siteId = Number(useParams().siteId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { can } = useSession();
  const { options } = useSitesWith('sites:view');
  const [form] = Form.useForm<TemplateForm>();
  const [draft, setDraft] = useState<AdminAdvert | null>(null);
  const key = ['site-templates', siteId];
  const query = useQuery({
    queryKey: key,
    queryFn: () => call(adminTemplatesApi.templates, { siteId }),
    enabled: can('sites:view', siteId),
  });
  const data = query.data;
  const canManage = can('sites:manage', siteId);
  const values = Form.useWatch([], form) as TemplateForm | undefined;
  useEffect(() => {
    if (data) form.setFieldsValue({ head: data.head, foot: data.foot });
  }, [data, form]);

  if (!can('sites:view', siteId))
    return <Result status="403" title="无权访问" subTitle="您没有该站点的站点配置权限" />;
  if (query.error) return <Alert type="error" showIcon message={(query.error as Error).message} />;
  if (!data) return <Spin style={{ display: 'block', margin: 48 }} />;

  const onSaved = (answer: SiteTemplates) => queryClient.setQueryData(key, answer);
  const menu = data.adverts.filter((a) => a.position === 'menu' && a.id !== draft?.id);
  if (draft?.position === 'menu') menu.splice(Math.min(draft.sort, menu.length), 0, draft);
  const { head, foot } = templatesOf(values, data);

  return (
    <div>
      <Space style={{ marginBottom: 16 }} wrap>
        <Link to="/sites">
          <ArrowLeftOutlined /> 站点配置
        </Link>
        <Typography.Title level={4} style={{ margin: 0 }}>
          模板与广告
        </Typography.Title>
        <Select
          aria-label="选择站点"
          style={{ width: 260 }}
          value={siteId}
          options={options}
          onChange={(id) => {
            setDraft(null);
            navigate(`/sites/${id}/templates`);
          }}
        />
        {!canManage && <Tag>只读：您没有该站点的管理权限</Tag>}
      </Space>
      <Row gutter={16}>
        <Col xs={24} xl={11}>
          <Card title="首页模板" style={{ marginBottom: 16 }}>
            <TemplateEditor key={siteId} data={data} form={form} canManage={canManage} onSaved={onSaved} />
          </Card>
          <Card title="广告">
            <AdvertTable data={data} canManage={canManage} onDraft={setDraft} onSaved={onSaved} />
          </Card>
        </Col>
        <Col xs={24} xl={13}>
          <Card
            title="商城页头与页脚预览"
            extra={<Typography.Text type="secondary">随输入实时更新，保存后商城前台显示</Typography.Text>}
            style={{ position: 'sticky', top: 72 }}
          >
            <StorefrontPreview site={data.site} head={head} foot={foot} menu={menu} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
