import {
  ModalForm,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import {
  type AdminSiteProduct,
  adminCatalogueApi as api,
  type MenuLevel,
  type MenuNode,
} from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Space, Spin, Tag, Tree } from 'antd';
import { type ReactElement, useState } from 'react';
import { call } from '../../api';
import { useWrite } from '../write';

const LEVEL_NAME: Record<MenuLevel, string> = { label: '标签', group: '分组', category: '分类' };
const CHILD: Record<MenuLevel, MenuLevel | undefined> = {
  label: 'group',
  group: 'category',
  category: undefined,
};

/** Which entry the form edits (`node`) or creates (of `level`, under `parentId`). */
type Editing = { level: MenuLevel; node?: MenuNode; parentId?: number };

/**
 * Creates or edits one entry of the menu: name, order, hidden. One form beside the tree, not one
 * per node: the tree is rebuilt when the menu is read again, which would close a form inside it.
 */
function MenuForm({
  siteId,
  editing: { level, node, parentId },
  onClose,
  onDone,
}: {
  siteId: number;
  editing: Editing;
  onClose: () => void;
  onDone: () => void;
}) {
  const write = useWrite();
  return (
    <ModalForm<{ name: string; sort?: number; hidden: boolean }>
      name="menuEntry"
      title={node ? `修改${LEVEL_NAME[level]}：${node.name}` : `新建${LEVEL_NAME[level]}`}
      width={420}
      open
      onOpenChange={(open) => open || onClose()}
      modalProps={{ destroyOnClose: true }}
      initialValues={{ name: node?.name ?? '', sort: node?.sort ?? 0, hidden: node?.hidden ?? false }}
      onFinish={(form) =>
        write(
          () =>
            call(api.saveMenu, {
              siteId,
              level,
              ...(node ? { id: node.id } : { parentId }),
              name: form.name,
              sort: form.sort ?? 0,
              hidden: form.hidden,
            }),
          '已保存',
          onDone,
        )
      }
    >
      <ProFormText
        name="name"
        label="名称"
        fieldProps={{ maxLength: 20 }}
        rules={[{ required: true, whitespace: true, message: '请填写名称' }]}
      />
      <ProFormDigit
        name="sort"
        label="排序"
        min={0}
        max={9_999}
        fieldProps={{ precision: 0 }}
        extra="数字小的在前"
      />
      <ProFormSwitch
        name="hidden"
        label="在商城菜单中隐藏"
        extra="隐藏后其下商品仍在售，只是不在分类菜单中显示"
      />
    </ModalForm>
  );
}

/** 分类管理: the site's labels, groups and categories as a tree, each editable. */
export function MenusButton({ siteId, manage }: { siteId: number; manage: boolean }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<Editing>();
  const client = useQueryClient();
  const menus = useQuery({
    queryKey: ['catalogue-menus', siteId],
    queryFn: () => call(api.menus, { siteId }),
    enabled: open,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['catalogue-menus', siteId] });
    void client.invalidateQueries({ queryKey: ['catalogue-categories', siteId] });
  };
  const title = (n: MenuNode) => {
    const child = CHILD[n.level];
    return (
      <Space size={4}>
        <span>{n.name}</span>
        <Tag>{LEVEL_NAME[n.level]}</Tag>
        {n.hidden && <Tag color="orange">已隐藏</Tag>}
        {n.level === 'category' && <span style={{ color: '#888' }}>{n.products} 件商品</span>}
        {manage && (
          <Button type="link" size="small" onClick={() => setEditing({ level: n.level, node: n })}>
            修改
          </Button>
        )}
        {manage && child && (
          <Button type="link" size="small" onClick={() => setEditing({ level: child, parentId: n.id })}>
            新建{LEVEL_NAME[child]}
          </Button>
        )}
      </Space>
    );
  };
  const toTree = (nodes: MenuNode[]): { key: string; title: ReactElement; children: unknown[] }[] =>
    nodes.map((n) => ({ key: `${n.level}-${n.id}`, title: title(n), children: toTree(n.children) }));
  return (
    <>
      <Button onClick={() => setOpen(true)}>分类管理</Button>
      {open && (
        <Drawer
          open
          width={720}
          title={`站点 ${siteId} 的分类菜单`}
          onClose={() => setOpen(false)}
          destroyOnClose
        >
          <Space direction="vertical" style={{ width: '100%' }}>
            <Alert
              type="info"
              showIcon
              message="标签 → 分组 → 分类；商品归入分类。排序数字小的在前，隐藏的不在商城菜单中显示。"
            />
            {manage && (
              <Button type="primary" onClick={() => setEditing({ level: 'label' })}>
                新建标签
              </Button>
            )}
            {menus.isLoading ? (
              <Spin />
            ) : (
              <Tree
                data-testid="menu-tree"
                blockNode
                selectable={false}
                defaultExpandAll
                key={menus.dataUpdatedAt}
                treeData={toTree((menus.data?.list ?? []) as MenuNode[]) as never}
              />
            )}
          </Space>
          {editing && (
            <MenuForm
              siteId={siteId}
              editing={editing}
              onClose={() => setEditing(undefined)}
              onDone={refresh}
            />
          )}
        </Drawer>
      )}
    </>
  );
}

/** The 分类 link of a product row: puts it under another category of the site. */
export function AssignForm({
  product,
  options,
  onDone,
}: {
  product: AdminSiteProduct;
  options: { value: number; label: string }[];
  onDone: () => void;
}) {
  const write = useWrite();
  return (
    <ModalForm<{ categoryId: number }>
      name="assignCategory"
      title={`归入分类：${product.name}`}
      width={480}
      trigger={
        <Button type="link" size="small">
          分类
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      initialValues={{ categoryId: product.categoryId }}
      onFinish={(form) =>
        write(
          () =>
            call(api.assignCategory, {
              siteId: product.siteId,
              categoryId: form.categoryId,
              productIds: [product.productId],
            }),
          '已归入分类',
          onDone,
        )
      }
    >
      <ProFormSelect
        name="categoryId"
        label="站点分类"
        options={options}
        fieldProps={{ showSearch: true }}
        rules={[{ required: true, message: '请选择分类' }]}
      />
    </ModalForm>
  );
}
