import {
  type ActionType,
  ModalForm,
  ProFormDigit,
  ProFormRadio,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import { type AdminPackProduct, adminPromotionsApi as promo } from '@sitemall/contract';
import { Tag } from 'antd';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { yuan } from '../../format';
import { useSession } from '../../session';
import { formTrigger } from '../form-trigger';
import { useWrite } from '../write';
import { fenOf, ReasonField, SiteField } from './shared';

interface ProductForm {
  siteId: number;
  name: string;
  faceYuan: number;
  priceYuan: number;
  validityDays: number;
  status?: 'active' | 'inactive';
  reason?: string;
}

/** Create a pack product, or edit one (name, price, validity, status; the face value stays). */
function ProductForm({ product, onDone }: { product?: AdminPackProduct; onDone: () => void }) {
  const write = useWrite();
  return (
    <ModalForm<ProductForm>
      name="packProduct"
      title={product ? `编辑卡包商品：${product.name}` : '新建卡包商品'}
      width={480}
      trigger={formTrigger({ editing: !!product, edit: '编辑', create: '新建卡包商品' })}
      modalProps={{ destroyOnClose: true }}
      initialValues={
        product
          ? {
              name: product.name,
              faceYuan: product.faceValue / 100,
              priceYuan: product.salePrice / 100,
              validityDays: product.validityDays,
              status: product.status as 'active',
            }
          : { validityDays: 365 }
      }
      onFinish={async (f) => {
        return write(
          async () => {
            if (product)
              await call(promo.updatePackProduct, {
                siteId: product.siteId,
                productId: product.id,
                name: f.name,
                salePrice: fenOf(f.priceYuan),
                validityDays: f.validityDays,
                status: f.status,
                reason: f.reason ?? '',
              });
            else
              await call(promo.createPackProduct, {
                siteId: f.siteId,
                name: f.name,
                faceValue: fenOf(f.faceYuan) ?? 0,
                salePrice: fenOf(f.priceYuan) ?? 0,
                validityDays: f.validityDays,
                reason: f.reason,
              });
          },
          '已保存',
          onDone,
        );
      }}
    >
      {product ? null : <SiteField />}
      <ProFormText name="name" label="名称" rules={[{ required: true, max: 40 }]} />
      <ProFormDigit
        name="faceYuan"
        label="面值（积分，元）"
        min={0.01}
        fieldProps={{ precision: 2 }}
        disabled={!!product}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="priceYuan"
        label="售价（元）"
        min={0}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit name="validityDays" label="有效天数" min={1} max={3650} rules={[{ required: true }]} />
      {product ? (
        <>
          <ProFormRadio.Group
            name="status"
            label="状态"
            options={[
              { value: 'active', label: '在售' },
              { value: 'inactive', label: '停用' },
            ]}
          />
          <ReasonField label="修改原因" />
        </>
      ) : (
        <ProFormTextArea name="reason" label="备注" fieldProps={{ maxLength: 200 }} />
      )}
    </ModalForm>
  );
}

/** Pack (gift card) products with how many cards exist and what their balances still owe. */
export function PackProducts() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const reload = () => action.current?.reload();
  return (
    <ProTable<AdminPackProduct>
      headerTitle="卡包商品"
      rowKey="id"
      actionRef={action}
      params={{ siteId }}
      search={false}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无卡包商品' }}
      request={(p) => pageOf(promo.packProducts, { siteId: p.siteId, pageNum: p.current })}
      toolBarRender={() => (can('promotions:manage') ? [<ProductForm key="new" onDone={reload} />] : [])}
      columns={[
        { title: '编号', dataIndex: 'id', width: 70 },
        { title: '站点', dataIndex: 'siteId', width: 70 },
        { title: '名称', dataIndex: 'name' },
        { title: '面值', dataIndex: 'faceValue', render: (_, p) => yuan(p.faceValue) },
        { title: '售价', dataIndex: 'salePrice', render: (_, p) => yuan(p.salePrice) },
        { title: '有效天数', dataIndex: 'validityDays' },
        {
          title: '状态',
          dataIndex: 'status',
          render: (_, p) => (p.status === 'active' ? <Tag color="green">在售</Tag> : <Tag>停用</Tag>),
        },
        { title: '已发卡', dataIndex: 'cards' },
        { title: '未用余额', dataIndex: 'liability', render: (_, p) => yuan(p.liability) },
        {
          title: '操作',
          valueType: 'option',
          render: (_, p) =>
            can('promotions:manage', p.siteId)
              ? [<ProductForm key="edit" product={p} onDone={reload} />]
              : [],
        },
      ]}
    />
  );
}
