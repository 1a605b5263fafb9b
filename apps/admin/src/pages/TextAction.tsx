import { ModalForm, ProFormTextArea } from '@ant-design/pro-components';
import { Button } from 'antd';

/** A button opening a form with one required text (a reason, a reply) before the action. */
export function TextAction({
  label,
  title,
  field,
  danger,
  link,
  onSubmit,
}: {
  label: string;
  title: string;
  field: string;
  danger?: boolean;
  /** A link-style trigger (table rows). */
  link?: boolean;
  onSubmit: (text: string) => Promise<unknown>;
}) {
  return (
    <ModalForm<{ text: string }>
      title={title}
      width={460}
      trigger={
        <Button danger={danger} type={link ? 'link' : 'default'}>
          {label}
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      onFinish={async ({ text }) => {
        await onSubmit(text);
        return true;
      }}
    >
      <ProFormTextArea
        name="text"
        label={field}
        rules={[{ required: true, whitespace: true, message: `请填写${field}` }]}
        fieldProps={{ maxLength: 200, showCount: true }}
      />
    </ModalForm>
  );
}
