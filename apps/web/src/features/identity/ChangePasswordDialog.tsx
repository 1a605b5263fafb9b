import { MSG } from '@sitemall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Modal } from 'antd';
import { useSite } from '../../site/SiteProvider.tsx';
import { uptPassword } from './api.ts';
import { useEndSession } from './hooks.ts';
import { passwordRule, sameAs } from './rules.ts';

interface Values {
  oldPsw: string;
  newPsw1: string;
  newPsw2: string;
}

/**
 * Change login password (spec sections 2, 5, 7, 8): oldPsw checked on blur, newPsw1 and
 * newPsw2 on change; all three encrypted and posted as form data. Success: 修改成功, then
 * the session ends and the visitor logs in again; failure: the server's msg.
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const endSession = useEndSession();
  const [form] = Form.useForm<Values>();
  const change = useMutation({ mutationFn: (values: Values) => uptPassword({ siteId, ...values }) });

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await change.mutateAsync(values);
      message.success(MSG.passwordChanged);
      onClose();
      await endSession();
    } catch (error) {
      message.error((error as Error).message);
    }
  };

  return (
    <Modal
      title="修改登录密码"
      open={open}
      onOk={submit}
      onCancel={onClose}
      okText="确认修改"
      cancelText="取消"
      confirmLoading={change.isPending}
      destroyOnHidden
      afterClose={() => form.resetFields()}
      width={460}
    >
      <Form form={form} layout="vertical" requiredMark={false} preserve={false} style={{ marginTop: 16 }}>
        <Form.Item
          name="oldPsw"
          label="原始密码"
          validateTrigger="onBlur"
          validateFirst
          rules={[{ required: true, message: MSG.oldPasswordRequired }, passwordRule]}
        >
          <Input.Password placeholder="请输入原始密码" maxLength={20} autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPsw1"
          label="新密码"
          validateTrigger="onChange"
          validateFirst
          rules={[{ required: true, message: MSG.newPasswordRequired }, passwordRule]}
          extra="6-20位，须同时包含字母和数字"
        >
          <Input.Password placeholder="请输入新密码" maxLength={20} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="newPsw2"
          label="确认密码"
          validateTrigger="onChange"
          validateFirst
          dependencies={['newPsw1']}
          rules={[{ required: true, message: MSG.confirmPasswordRequired }, sameAs('newPsw1'), passwordRule]}
        >
          <Input.Password placeholder="请再次输入新密码" maxLength={20} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
