import { type Address, isMobile } from '@sitemall/contract';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { App, Cascader, Checkbox, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { validIf } from '../../ui/rules.ts';
import { type AddressInput, districtQuery, useSaveAddress } from './api.ts';

interface Option {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: Option[];
}

async function loadDistricts(queryClient: QueryClient, code: string): Promise<Option[]> {
  return (await queryClient.fetchQuery(districtQuery(code))).map((d) => ({
    value: d.code,
    label: d.name,
    isLeaf: !d.hasChildren,
  }));
}

interface Values {
  consignee: string;
  phone: string;
  region: string[];
  detail: string;
  isDefault: boolean;
}

/** Add or edit an address in a dialog; province/city/district come from the server's list. */
export function AddressFormDialog({
  open,
  address,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: a new address. */
  address: Address | null;
  onClose: () => void;
  onSaved?: (address: Address) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [options, setOptions] = useState<Option[]>([]);
  const saving = useSaveAddress();

  const load = (code: string) => loadDistricts(queryClient, code);

  // The provinces, and for an edited address the path down to its district.
  useEffect(() => {
    if (!open) return;
    let live = true;
    void (async () => {
      const provinces = await loadDistricts(queryClient, '').catch(() => []);
      if (address) {
        const province = provinces.find((p) => p.value === address.provinceCode);
        if (province && !province.isLeaf) {
          province.children = await loadDistricts(queryClient, province.value).catch(() => []);
          const city = province.children.find((c) => c.value === address.cityCode);
          if (city && !city.isLeaf && address.districtCode)
            city.children = await loadDistricts(queryClient, city.value).catch(() => []);
        }
      }
      if (live) setOptions(provinces);
    })();
    form.setFieldsValue(
      address
        ? {
            consignee: address.consignee,
            phone: address.phone,
            region: [address.provinceCode, address.cityCode, address.districtCode].filter(Boolean),
            detail: address.detail,
            isDefault: address.isDefault,
          }
        : { consignee: '', phone: '', region: [], detail: '', isDefault: false },
    );
    return () => {
      live = false;
    };
  }, [open, address, form, queryClient]);

  const loadData = async (selected: Option[]) => {
    const target = selected[selected.length - 1];
    if (!target) return;
    target.children = await load(target.value).catch(() => []);
    if (target.children.length === 0) target.isLeaf = true;
    setOptions((prev) => [...prev]);
  };

  // Runs only for valid input: the form validates on submit and shows each field's message,
  // so bad input never becomes a rejected promise nobody awaits.
  const save = async (values: Values) => {
    const [provinceCode = '', cityCode = '', districtCode = ''] = values.region;
    const input: AddressInput = {
      ...(address ? { id: address.id } : {}),
      consignee: values.consignee.trim(),
      phone: values.phone.trim(),
      provinceCode,
      cityCode,
      districtCode,
      detail: values.detail.trim(),
      isDefault: values.isDefault,
    };
    try {
      const saved = await saving.mutateAsync(input);
      void message.success('保存成功');
      onSaved?.(saved);
      onClose();
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '保存失败');
    }
  };

  return (
    <Modal
      open={open}
      title={address ? '编辑收货地址' : '新增收货地址'}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving.isPending}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 18 }}
        data-testid="address-form"
        onFinish={(values) => void save(values)}
      >
        <Form.Item
          name="consignee"
          label="收货人"
          rules={[
            { required: true, whitespace: true, message: '请输入收货人姓名' },
            { max: 20, message: '收货人姓名最多 20 字' },
          ]}
        >
          <Input placeholder="请输入收货人姓名" maxLength={20} />
        </Form.Item>
        <Form.Item
          name="phone"
          label="手机号码"
          rules={[
            { required: true, message: '请输入手机号码' },
            validIf((value) => isMobile(value.trim()), '请输入正确的手机号'),
          ]}
        >
          <Input placeholder="请输入手机号码" maxLength={11} />
        </Form.Item>
        <Form.Item
          name="region"
          label="所在地区"
          rules={[
            {
              validator: (_, value: string[] | undefined) =>
                value && value.length >= 2 ? Promise.resolve() : Promise.reject(new Error('请选择省市区')),
            },
          ]}
        >
          <Cascader
            options={options}
            loadData={(selected) => void loadData(selected as Option[])}
            changeOnSelect={false}
            placeholder="请选择省 / 市 / 区"
            data-testid="address-region"
          />
        </Form.Item>
        <Form.Item
          name="detail"
          label="详细地址"
          rules={[
            { required: true, whitespace: true, message: '请输入详细地址' },
            { max: 120, message: '详细地址最多 120 字' },
          ]}
        >
          <Input.TextArea
            placeholder="街道、门牌号等"
            maxLength={120}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </Form.Item>
        <Form.Item name="isDefault" valuePropName="checked" wrapperCol={{ offset: 5 }}>
          <Checkbox>设为默认地址</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
