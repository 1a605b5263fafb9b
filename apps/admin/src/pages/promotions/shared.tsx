import { ModalForm, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useSitesWith } from '../../session';

/** The reason field every sensitive promotion write asks for. */
export const ReasonField = ({ label = '操作原因' }: { label?: string }) => (
  <ProFormTextArea
    name="reason"
    label={label}
    rules={[{ required: true, whitespace: true, message: '请填写操作原因' }]}
    fieldProps={{ maxLength: 200, showCount: true }}
  />
);

/** The site a new record belongs to: the operator's sites where they hold `permission`. */
export function SiteField({
  permission = 'promotions:manage',
  onChange,
}: {
  permission?: string;
  onChange?: (siteId: number) => void;
}) {
  const sites = useSitesWith(permission);
  return (
    <ProFormSelect
      name="siteId"
      label="站点"
      options={sites.options}
      initialValue={sites.initial}
      rules={[{ required: true, message: '请选择站点' }]}
      fieldProps={onChange ? { onChange } : undefined}
    />
  );
}

/** A button asking for a reason (and any extra fields) before a write. */
export function ReasonAction<T extends Record<string, unknown>>({
  label,
  title,
  danger,
  children,
  initialValues,
  onSubmit,
}: {
  label: string;
  title: string;
  danger?: boolean;
  children?: ReactNode;
  initialValues?: Partial<T>;
  onSubmit: (form: T & { reason: string }) => Promise<boolean>;
}) {
  return (
    <ModalForm<T & { reason: string }>
      name="reasonAction"
      title={title}
      width={460}
      trigger={
        <Button type="link" size="small" danger={danger}>
          {label}
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      initialValues={initialValues}
      onFinish={onSubmit}
    >
      {children}
      <ReasonField />
    </ModalForm>
  );
}

export const fenOf = (yuanValue: number | undefined) =>
  yuanValue === undefined || yuanValue === null ? undefined : Math.round(yuanValue * 100);
