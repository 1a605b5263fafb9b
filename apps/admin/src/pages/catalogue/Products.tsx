import {
  type ActionType,
  ModalForm,
  PageContainer,
  ProFormDependency,
  ProFormDigit,
  ProFormGroup,
  ProFormList,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminSiteProduct,
  type AdminSpec,
  adminCatalogueApi as api,
  MAX_LIMIT_NUM,
  MAX_STOCK,
  type SharedProduct,
  SOURCE_TYPES,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Popconfirm, Space, Tag, Typography } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { call, callFile, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { toFen, yuan } from '../../format';
import { useSession } from '../../session';
import { useRun } from '../write';
import { ImportButton } from './Import';
import { AssignForm, MenusButton } from './Menus';
import { PicturesButton } from './Pictures';
import { priceRules, useWorkSite } from './shared';

const priceField = (spec: AdminSpec) => `price_${spec.id}`;

/** One price field per specification, in yuan. */
function SpecPrices({ specs }: { specs: AdminSpec[] }) {
  return (
    <>
      {specs.map((s) => (
        <ProFormDigit
          key={s.id}
          name={priceField(s)}
          label={`${s.specificationValue}（库存 ${s.stock}）`}
          fieldProps={{ precision: 2, addonAfter: '元' }}
          rules={priceRules}
        />
      ))}
    </>
  );
}
const pricesOf = (specs: AdminSpec[], form: Record<string, unknown>) =>
  specs
    .filter((s) => form[priceField(s)] !== undefined && form[priceField(s)] !== null)
    .map((s) => ({ specificationId: s.id, price: toFen(Number(form[priceField(s)])) }));

const useCategories = (siteId: number) =>
  useQuery({
    queryKey: ['catalogue-categories', siteId],
    queryFn: () => call(api.categories, { siteId }),
    select: (data) => data.list.map((c) => ({ value: c.id, label: c.path })),
  });

/** The site category a product is listed under, required when it goes on the site. */
function CategoryField({ siteId }: { siteId: number }) {
  const categories = useCategories(siteId);
  return (
    <ProFormSelect
      name="categoryId"
      label="站点分类"
      showSearch
      options={categories.data ?? []}
      rules={[{ required: true, message: '请选择分类' }]}
    />
  );
}

/** A product's per-order limit on the site (0 is none); the limit's own form asks for it. */
const OrderLimitField = ({ label = '每单限购', required }: { label?: string; required?: boolean }) => (
  <ProFormDigit
    name="limitNum"
    label={label}
    min={0}
    max={MAX_LIMIT_NUM}
    fieldProps={{ precision: 0, addonAfter: '件' }}
    extra="0 为不限购"
    rules={required ? [{ required: true, message: '请填写限购数量' }] : undefined}
  />
);

/** Puts a product of the shared catalogue on the site: category, a price per specification, limit. */
function ListForm({ siteId, onDone }: { siteId: number; onDone: () => void }) {
  const run = useRun(onDone);
  const [found, setFound] = useState<SharedProduct[]>([]);
  return (
    <ModalForm<
      Record<string, unknown> & {
        productId: number;
        categoryId: number;
        limitNum?: number;
        isOnSale: boolean;
      }
    >
      name="listProduct"
      title={`上架商品到站点 ${siteId}`}
      width={560}
      trigger={<Button type="primary">上架商品</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={{ isOnSale: true, limitNum: 0 }}
      onFinish={(form) => {
        const chosen = found.find((p) => p.id === form.productId);
        if (!chosen) return Promise.resolve(false);
        return run(
          () =>
            call(api.list, {
              siteId,
              productId: form.productId,
              categoryId: form.categoryId,
              prices: pricesOf(chosen.specs, form),
              limitNum: form.limitNum ?? 0,
              isOnSale: form.isOnSale,
            }),
          '商品已上架',
        );
      }}
    >
      <ProFormSelect
        name="productId"
        label="共享商品"
        placeholder="输入商品编号或名称搜索本站未上架的商品"
        showSearch
        debounceTime={300}
        rules={[{ required: true, message: '请选择商品' }]}
        request={async ({ keyWords }) => {
          const page = await call(api.shared, { siteId, keyword: keyWords || undefined });
          setFound((known) => [...known.filter((k) => !page.list.some((p) => p.id === k.id)), ...page.list]);
          return page.list.map((p) => ({ value: p.id, label: `${p.id} ${p.name}` }));
        }}
      />
      <CategoryField siteId={siteId} />
      <ProFormDependency name={['productId']}>
        {({ productId }) => {
          const chosen = found.find((p) => p.id === productId);
          return chosen ? <SpecPrices specs={chosen.specs} /> : null;
        }}
      </ProFormDependency>
      <OrderLimitField />
      <ProFormSwitch name="isOnSale" label="立即在售" />
    </ModalForm>
  );
}

/** Physical supply sources (a new product is goods delivered to an address). */
const SOURCE_OPTIONS = [
  ...new Map(SOURCE_TYPES.filter((s) => s.hasAddressTab).map((s) => [s.source, `${s.source} ${s.name}`])),
].map(([value, label]) => ({ value, label }));

interface CreateForm {
  name: string;
  brand?: string;
  shopId: number;
  source: number;
  categoryId: number;
  specs: { specificationValue: string; stock: number; priceYuan: number }[];
  limitNum?: number;
}

/** A brand-new product of the shared catalogue, with its specifications and stock, listed on the site. */
function CreateProductForm({ siteId, onDone }: { siteId: number; onDone: () => void }) {
  const run = useRun(onDone);
  return (
    <ModalForm<CreateForm>
      name="createProduct"
      title={`新建商品并上架到站点 ${siteId}`}
      width={720}
      trigger={<Button>新建商品</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={{ source: 2, limitNum: 0, specs: [{ stock: 0 }] }}
      onFinish={(form) =>
        run(
          () =>
            call(api.create, {
              siteId,
              name: form.name,
              brand: form.brand || undefined,
              shopId: form.shopId,
              source: form.source,
              categoryId: form.categoryId,
              specs: (form.specs ?? []).map((s) => ({
                specificationValue: s.specificationValue,
                stock: s.stock ?? 0,
                price: toFen(s.priceYuan),
              })),
              limitNum: form.limitNum ?? 0,
            }),
          '商品已创建并上架',
        )
      }
    >
      <ProFormText name="name" label="商品名称" rules={[{ required: true, whitespace: true, max: 60 }]} />
      <ProFormText name="brand" label="品牌" rules={[{ max: 30 }]} />
      <ProFormGroup>
        <ProFormSelect
          name="shopId"
          label="供货店铺"
          width="md"
          showSearch
          rules={[{ required: true, message: '请选择店铺' }]}
          request={async () =>
            (await call(api.shops, { siteId })).list.map((s) => ({ value: s.id, label: s.shopName }))
          }
        />
        <ProFormSelect name="source" label="供货来源" width="sm" options={SOURCE_OPTIONS} />
      </ProFormGroup>
      <CategoryField siteId={siteId} />
      <ProFormList
        name="specs"
        label="规格"
        min={1}
        max={20}
        creatorButtonProps={{ creatorButtonText: '添加规格' }}
        copyIconProps={false}
      >
        <ProFormGroup>
          <ProFormText
            name="specificationValue"
            label="规格名称"
            width="sm"
            rules={[{ required: true, whitespace: true, max: 40, message: '请填写规格名称' }]}
          />
          <ProFormDigit
            name="stock"
            label="期初库存"
            width="xs"
            min={0}
            max={MAX_STOCK}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写库存' }]}
          />
          <ProFormDigit
            name="priceYuan"
            label="站点价（元）"
            width="xs"
            fieldProps={{ precision: 2 }}
            rules={priceRules}
          />
        </ProFormGroup>
      </ProFormList>
      <OrderLimitField />
    </ModalForm>
  );
}

/** Changes the site prices of a listed product's specifications. */
function PriceForm({ product, onDone }: { product: AdminSiteProduct; onDone: () => void }) {
  const run = useRun(onDone);
  return (
    <ModalForm<Record<string, unknown>>
      name="sitePrices"
      title={`修改站点价：${product.name}`}
      width={520}
      trigger={
        <Button type="link" size="small">
          改价
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      initialValues={Object.fromEntries(
        product.specs.filter((s) => s.price !== null).map((s) => [priceField(s), (s.price as number) / 100]),
      )}
      onFinish={(form) =>
        run(
          () =>
            call(api.setPrices, {
              siteId: product.siteId,
              productId: product.productId,
              prices: pricesOf(product.specs, form),
            }),
          '站点价已保存',
        )
      }
    >
      <SpecPrices specs={product.specs} />
    </ModalForm>
  );
}

function LimitForm({ product, onDone }: { product: AdminSiteProduct; onDone: () => void }) {
  const run = useRun(onDone);
  return (
    <ModalForm<{ limitNum: number }>
      name="purchaseLimit"
      title={`每单限购：${product.name}`}
      width={420}
      trigger={
        <Button type="link" size="small">
          限购
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      initialValues={{ limitNum: product.limitNum }}
      onFinish={(form) =>
        run(
          () =>
            call(api.setLimit, {
              siteId: product.siteId,
              productId: product.productId,
              limitNum: form.limitNum,
            }),
          '限购已保存',
        )
      }
    >
      <OrderLimitField label="每单最多" required />
    </ModalForm>
  );
}

interface Filters {
  keyword?: string;
  onSale?: string;
  categoryId?: number;
}

function ProductTable({ siteId, picker }: { siteId: number; picker: ReactNode }) {
  const { can } = useSession();
  const { message } = App.useApp();
  const action = useRef<ActionType>(null);
  const reload = () => action.current?.reload();
  const run = useRun(reload);
  const categories = useCategories(siteId);
  const [filters, setFilters] = useState<Filters>({});
  const manage = can('catalogue:manage', siteId);
  const query = (f: Filters) => ({
    siteId,
    keyword: f.keyword || undefined,
    onSale: f.onSale === undefined || f.onSale === '' ? undefined : (Number(f.onSale) as 0 | 1),
    categoryId: f.categoryId || undefined,
  });
  return (
    <ProTable<AdminSiteProduct, Filters & { siteId: number }>
      form={searchForm()}
      headerTitle="站点商品"
      rowKey="productId"
      actionRef={action}
      params={{ siteId }}
      search={{ labelWidth: 'auto' }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: <Empty description="没有符合条件的商品" /> }}
      request={(p) => {
        const f = { keyword: p.keyword, onSale: p.onSale, categoryId: p.categoryId };
        setFilters(f);
        return pageOf(api.products, { ...query(f), pageNum: p.current });
      }}
      toolBarRender={() => [
        picker,
        <Button
          key="export"
          onClick={() =>
            callFile(api.exportProducts, query(filters)).catch((e) => message.error((e as Error).message))
          }
        >
          导出 xlsx
        </Button>,
        <MenusButton key="menus" siteId={siteId} manage={manage} />,
        manage ? <ImportButton key="import" siteId={siteId} onDone={reload} /> : null,
        manage ? <CreateProductForm key="create" siteId={siteId} onDone={reload} /> : null,
        manage ? <ListForm key="list" siteId={siteId} onDone={reload} /> : null,
      ]}
      columns={[
        { title: '商品编号/名称', dataIndex: 'keyword', hideInTable: true },
        {
          title: '状态',
          dataIndex: 'onSale',
          hideInTable: true,
          valueType: 'select',
          valueEnum: { 1: { text: '在售' }, 0: { text: '已下架' } },
        },
        {
          title: '分类',
          dataIndex: 'categoryId',
          hideInTable: true,
          valueType: 'select',
          fieldProps: { options: categories.data ?? [], showSearch: true },
        },
        { title: '编号', dataIndex: 'productId', width: 70, search: false },
        {
          title: '商品',
          dataIndex: 'name',
          search: false,
          render: (_, p) => (
            <Space direction="vertical" size={0}>
              <Typography.Text>{p.name}</Typography.Text>
              <Typography.Text type="secondary">
                {p.brand} · {p.categoryName}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: '规格与站点价',
          dataIndex: 'specs',
          search: false,
          render: (_, p) => (
            <Space direction="vertical" size={2}>
              {p.specs.map((s) => (
                <span key={s.id}>
                  {s.specificationValue}：
                  {s.price === null ? <Tag color="red">未定价</Tag> : `¥${yuan(s.price)}`}
                </span>
              ))}
            </Space>
          ),
        },
        { title: '站点价', dataIndex: 'price', search: false, render: (_, p) => `¥${yuan(p.price)} 起` },
        { title: '库存', dataIndex: 'stock', search: false, width: 80 },
        {
          title: '状态',
          dataIndex: 'isOnSale',
          search: false,
          width: 80,
          render: (_, p) => (p.isOnSale ? <Tag color="green">在售</Tag> : <Tag>已下架</Tag>),
        },
        {
          title: '限购',
          dataIndex: 'limitNum',
          search: false,
          width: 80,
          render: (_, p) => (p.limitNum ? `${p.limitNum} 件/单` : '不限'),
        },
        { title: '销量', dataIndex: 'sales', search: false, width: 80 },
        {
          title: '操作',
          valueType: 'option',
          width: 250,
          render: (_, p) =>
            manage
              ? [
                  <PicturesButton key="pictures" product={p} manage />,
                  <PriceForm key="price" product={p} onDone={reload} />,
                  <Popconfirm
                    key="sale"
                    title={p.isOnSale ? '确认下架？会员将无法购买' : '确认上架？'}
                    onConfirm={() =>
                      run(
                        () =>
                          call(api.setSale, {
                            siteId: p.siteId,
                            productId: p.productId,
                            isOnSale: !p.isOnSale,
                          }),
                        p.isOnSale ? '已下架' : '已上架',
                      )
                    }
                  >
                    <Button type="link" size="small" danger={p.isOnSale}>
                      {p.isOnSale ? '下架' : '上架'}
                    </Button>
                  </Popconfirm>,
                  <LimitForm key="limit" product={p} onDone={reload} />,
                  <AssignForm key="category" product={p} options={categories.data ?? []} onDone={reload} />,
                ]
              : [<PicturesButton key="pictures" product={p} manage={false} />],
        },
      ]}
    />
  );
}

/** 商品管理: what the site sells from the shared catalogue, at what price, on sale or not. */
export function CataloguePage() {
  const { siteId, picker } = useWorkSite('catalogue:view');
  return (
    <PageContainer header={{ title: '商品管理' }}>
      {siteId ? (
        <ProductTable key={siteId} siteId={siteId} picker={picker} />
      ) : (
        <Alert type="info" showIcon message="您没有可管理商品的站点" />
      )}
    </PageContainer>
  );
}
