import { EnvironmentOutlined, PlusOutlined } from '@ant-design/icons';
import type { Address } from '@sitemall/contract';
import { App, Button, Empty, Popconfirm, Result, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { AddressFormDialog } from './AddressForm.tsx';
import { addressText, useAddresses, useDeleteAddress, useSetDefaultAddress } from './api.ts';
import './address.css';

/** /myAddress: the member's addresses; add, edit, delete, set default (at most one default). */
export function AddressBook() {
  const { message } = App.useApp();
  const removal = useDeleteAddress();
  const defaulting = useSetDefaultAddress();
  const addresses = useAddresses();
  const [editing, setEditing] = useState<Address | null | undefined>(undefined);

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      void message.success(done);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '操作失败');
    }
  };

  const list = addresses.data ?? [];
  return (
    <section className="page-card address-book" data-testid="address-book">
      <h2 className="page-card__title">
        收货地址
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing(null)}
          data-testid="address-add"
        >
          新增收货地址
        </Button>
      </h2>
      {addresses.isPending ? (
        <Skeleton active />
      ) : addresses.isError ? (
        <Result status="warning" title="收货地址加载失败" subTitle={addresses.error.message} />
      ) : list.length === 0 ? (
        <Empty description="还没有收货地址" />
      ) : (
        <ul className="address-book__list">
          {list.map((address) => (
            <li key={address.id} className="address-card" data-testid="address-card">
              <div className="address-card__main">
                <strong>{address.consignee}</strong>
                <span>{address.phone}</span>
                {address.isDefault && <Tag color="red">默认</Tag>}
              </div>
              <div className="address-card__text">
                <EnvironmentOutlined /> {addressText(address)}
              </div>
              <div className="address-card__actions">
                {!address.isDefault && (
                  <Button
                    type="link"
                    onClick={() => void act(() => defaulting.mutateAsync(address.id), '已设为默认地址')}
                  >
                    设为默认
                  </Button>
                )}
                <Button type="link" onClick={() => setEditing(address)}>
                  编辑
                </Button>
                <Popconfirm
                  title="确定删除该收货地址吗？"
                  onConfirm={() => act(() => removal.mutateAsync(address.id), '删除成功')}
                >
                  <Button type="link" danger>
                    删除
                  </Button>
                </Popconfirm>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddressFormDialog
        open={editing !== undefined}
        address={editing ?? null}
        onClose={() => setEditing(undefined)}
      />
    </section>
  );
}

/**
 * The address choice of order submission: the default address first, a new one can be added
 * inline (and is chosen). Reports the chosen address (null when none).
 */
export function AddressPicker({
  value,
  onChange,
}: {
  value: Address | null;
  onChange: (a: Address | null) => void;
}) {
  const addresses = useAddresses();
  const [adding, setAdding] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const list = addresses.data ?? [];

  // Choose the default (first) address once the list is known; drop a choice that was deleted.
  useEffect(() => {
    if (!addresses.data) return;
    const still = value && addresses.data.find((a) => a.id === value.id);
    if (still) {
      if (still !== value) onChange(still);
      return;
    }
    onChange(addresses.data[0] ?? null);
  }, [addresses.data, value, onChange]);

  if (addresses.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (addresses.isError)
    return <Result status="warning" title="收货地址加载失败" subTitle={addresses.error.message} />;
  const shown = showAll ? list : list.slice(0, 4);
  return (
    <div className="address-picker" data-testid="address-picker">
      {list.length === 0 && <p className="address-picker__none">还没有收货地址，请先新增一个。</p>}
      <div className="address-picker__grid">
        {shown.map((address) => (
          <button
            type="button"
            key={address.id}
            className={`address-picker__item ${value?.id === address.id ? 'is-active' : ''}`}
            onClick={() => onChange(address)}
            aria-pressed={value?.id === address.id}
            data-testid="address-option"
          >
            <span className="address-picker__who">
              <strong>{address.consignee}</strong> {address.phone}
              {address.isDefault && <Tag color="red">默认</Tag>}
            </span>
            <span className="address-picker__text">{addressText(address)}</span>
          </button>
        ))}
        <button
          type="button"
          className="address-picker__add"
          onClick={() => setAdding(true)}
          data-testid="address-add"
        >
          <PlusOutlined /> 新增收货地址
        </button>
      </div>
      {list.length > 4 && (
        <Button type="link" onClick={() => setShowAll((v) => !v)}>
          {showAll ? '收起地址' : `显示全部地址（${list.length}）`}
        </Button>
      )}
      <AddressFormDialog
        open={adding}
        address={null}
        onClose={() => setAdding(false)}
        onSaved={(a) => onChange(a)}
      />
    </div>
  );
}
