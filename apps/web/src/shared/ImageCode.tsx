import { ReloadOutlined, SafetyOutlined } from '@ant-design/icons';
import { identityApi } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, type FormInstance, Input, Space } from 'antd';
import { call } from '../api/client.ts';
import './imageCode.css';
import { keys } from '../api/keys.ts';

/**
 * The image verification code, shared by every form that asks a person to prove themself: the
 * SMS send, a password login the server has grown wary of, and the look-ups by phone. Each code
 * serves one try on the server, so a form draws a fresh one after every call that used it.
 */

export const IMAGE_CODE_REQUIRED = '请输入图形验证码';

export const fetchImageCode = (siteId: string) => call(identityApi.imageCode, { siteId }, { repeat: true });

/** One form's current image code; `enabled` false draws none until the form needs one. */
export function useImageCode(siteId: string | null, scope: string, enabled = true) {
  return useQuery({
    queryKey: keys.imageCode(siteId, scope),
    queryFn: () => fetchImageCode(siteId ?? ''),
    enabled: enabled && !!siteId,
    staleTime: 4 * 60_000,
    gcTime: 0,
    retry: false,
  });
}
export type ImageCodeState = ReturnType<typeof useImageCode>;

/** Clears what was typed and draws the next picture. */
export function refreshImageCode(form: FormInstance, captcha: ImageCodeState) {
  form.setFieldValue('imageCode', '');
  void captcha.refetch();
}

/** What a call sends: the shown code's id and what the person typed (nothing when empty). */
export function imageCodeProof(
  form: FormInstance,
  captcha: ImageCodeState,
): { captchaId?: string; imageCode?: string } {
  const imageCode = String(form.getFieldValue('imageCode') ?? '').trim();
  return imageCode && captcha.data ? { captchaId: captcha.data.captchaId, imageCode } : {};
}

/** The image-code input (form field `imageCode`) with its picture; a click draws another. */
export function ImageCodeField({
  form,
  captcha,
  size = 'large',
  label,
  required = false,
}: {
  form: FormInstance;
  captcha: ImageCodeState;
  size?: 'large' | 'middle';
  label?: string;
  /** Checked in the browser too (otherwise the server says when it wants one). */
  required?: boolean;
}) {
  const svg = captcha.data?.svg;
  return (
    <Form.Item required label={label}>
      <Space.Compact block>
        <Form.Item
          name="imageCode"
          noStyle
          rules={required ? [{ required: true, whitespace: true, message: IMAGE_CODE_REQUIRED }] : []}
        >
          <Input
            size={size}
            prefix={<SafetyOutlined />}
            placeholder="请输入图形验证码"
            maxLength={8}
            autoComplete="off"
          />
        </Form.Item>
        <button
          type="button"
          className={`image-code__picture image-code__picture--${size}`}
          onClick={() => refreshImageCode(form, captcha)}
          title="看不清？换一张"
          aria-label="图形验证码，点击换一张"
          data-testid="captcha"
          data-captcha-id={captcha.data?.captchaId}
        >
          {svg ? (
            <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="图形验证码" />
          ) : (
            <span>
              <ReloadOutlined /> {captcha.isError ? '点击重试' : '加载中'}
            </span>
          )}
        </button>
      </Space.Compact>
    </Form.Item>
  );
}
