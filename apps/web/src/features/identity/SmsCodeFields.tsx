import { SafetyCertificateOutlined } from '@ant-design/icons';
import { IDENTITY_MSG, SMS_CODE_LENGTH, SMS_RESEND_SECONDS, type SmsPurpose } from '@sitemall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Form, type FormInstance, Input, Space } from 'antd';
import { ApiError } from '../../api/client.ts';
import {
  IMAGE_CODE_REQUIRED,
  ImageCodeField,
  refreshImageCode,
  useImageCode,
} from '../../shared/ImageCode.tsx';
import { useSite } from '../../site/SiteProvider.tsx';
import { sendSmsCode } from './api.ts';
import { useCountdown } from './hooks.ts';
import { smsCodeRules } from './rules.ts';

/**
 * Image verification code plus SMS code with the 获取验证码 button. The server asks for an
 * image code before it sends an SMS; each image code serves one try, so a fresh one is drawn
 * after every send. The button then counts down SMS_RESEND_SECONDS (spec section 4).
 */
export function SmsCodeFields({
  form,
  purpose,
  onRefused,
}: {
  form: FormInstance;
  purpose: SmsPurpose;
  /** The server would not send a code (a cap, a wait): the page may offer another way in. */
  onRefused?: (msg: string) => void;
}) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const { left, start } = useCountdown();
  const sending = useMutation({ mutationFn: sendSmsCode });
  const captcha = useImageCode(siteId, `sms:${purpose}`);

  const send = async () => {
    let phone: string;
    try {
      ({ phone } = await form.validateFields(['phone']));
    } catch {
      return;
    }
    // The image code is needed to send, not to submit the form (it is spent by then).
    const imageCode = String(form.getFieldValue('imageCode') ?? '').trim();
    if (!imageCode) {
      form.setFields([{ name: 'imageCode', errors: [IMAGE_CODE_REQUIRED] }]);
      return;
    }
    if (!captcha.data || !siteId) return;
    try {
      const sent = await sending.mutateAsync({
        siteId,
        phone,
        purpose,
        captchaId: captcha.data.captchaId,
        imageCode,
      });
      message.success(IDENTITY_MSG.codeSent);
      start(sent.resendAfter ?? SMS_RESEND_SECONDS);
    } catch (error) {
      const msg = (error as Error).message;
      if (!(error instanceof ApiError)) message.error(msg);
      // A page that shows a refusal itself (with another way in) needs no toast on top; a
      // wrong image code is the field's own message.
      else if (onRefused && msg !== IDENTITY_MSG.wrongImageCode) onRefused(msg);
      else message.error(msg);
      if (error instanceof ApiError && msg === IDENTITY_MSG.wrongImageCode)
        form.setFields([{ name: 'imageCode', errors: [IDENTITY_MSG.wrongImageCode] }]);
    } finally {
      refreshImageCode(form, captcha);
    }
  };

  return (
    <>
      <ImageCodeField form={form} captcha={captcha} />
      <Form.Item required>
        <Space.Compact block>
          <Form.Item name="code" rules={smsCodeRules} noStyle>
            <Input
              size="large"
              prefix={<SafetyCertificateOutlined />}
              placeholder={`请输入${SMS_CODE_LENGTH}位短信验证码`}
              maxLength={SMS_CODE_LENGTH}
              inputMode="numeric"
              autoComplete="one-time-code"
            />
          </Form.Item>
          <Button
            size="large"
            className="idn-code-button"
            onClick={send}
            loading={sending.isPending}
            disabled={left > 0}
            data-testid="send-code"
          >
            {left > 0 ? `${left}秒后重新获取` : '获取验证码'}
          </Button>
        </Space.Compact>
      </Form.Item>
    </>
  );
}
