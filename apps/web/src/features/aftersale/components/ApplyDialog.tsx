import { PlusOutlined } from '@ant-design/icons';
import {
  AFTER_SALE_KIND_LABEL,
  AFTER_SALE_REASONS,
  type AfterSaleKind,
  type LineEligibility,
  MAX_AFTER_SALE_PICS,
} from '@sitemall/contract';
import { App, Form, Input, InputNumber, Modal, Radio, Select, Upload, type UploadFile } from 'antd';
import { useSite } from '../../../site/SiteProvider.tsx';
import { uploadPic, useApplyCase } from '../api.ts';

interface FormValues {
  kind: AfterSaleKind;
  qty: number;
  reason: string;
  description?: string;
  pics: UploadFile[];
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** Up to six pictures, each uploaded when chosen; the form keeps their urls. */
function PicsUpload({ value, onChange }: { value?: UploadFile[]; onChange?: (files: UploadFile[]) => void }) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  return (
    <Upload
      name="file"
      listType="picture-card"
      accept={IMAGE_TYPES.join(',')}
      maxCount={MAX_AFTER_SALE_PICS}
      fileList={value ?? []}
      customRequest={({ file, onSuccess, onError }) => {
        uploadPic(siteId ?? '', file as File).then(
          (answer) => onSuccess?.(answer),
          (error: Error) => onError?.(error),
        );
      }}
      beforeUpload={(file) => {
        if (!IMAGE_TYPES.includes(file.type) || file.size > 2 * 1024 * 1024) {
          void message.error('仅支持 2 MB 以内的 PNG、JPG、WebP 图片');
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      onChange={({ file: changed, fileList }) => {
        if (changed.status === 'error') void message.error(changed.error?.message || '上传失败，请重试');
        onChange?.(
          fileList.map((f) => (f.status === 'done' ? { ...f, url: (f.response as { url: string }).url } : f)),
        );
      }}
    >
      {(value ?? []).length < MAX_AFTER_SALE_PICS && (
        <button type="button" className="upload-trigger">
          <PlusOutlined />
          <div>上传图片</div>
        </button>
      )}
    </Upload>
  );
}

/** The apply form for one line: kind, pieces, reason, description and pictures. */
export function ApplyDialog({
  orderNo,
  line,
  onClose,
  onApplied,
}: {
  orderNo: string;
  line: LineEligibility;
  onClose: () => void;
  onApplied: (afterSaleNo: string) => void;
}) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const applying = useApplyCase(siteId ?? '');

  const submit = async () => {
    const values = await form.validateFields();
    if (values.pics.some((p) => p.status !== 'done')) {
      form.setFields([{ name: 'pics', errors: ['请等待图片上传完成'] }]);
      return;
    }
    try {
      const created = await applying.mutateAsync({
        siteId: Number(siteId),
        orderNo,
        lineId: line.lineId,
        kind: values.kind,
        qty: values.qty,
        reason: values.reason,
        description: values.description ?? '',
        pics: values.pics.map((p) => p.url ?? ''),
      });
      void message.success('售后申请已提交，请等待审核');
      onApplied(created.afterSaleNo);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '提交失败');
    }
  };

  return (
    <Modal
      open
      title={`申请售后：${line.name}`}
      okText="提交申请"
      cancelText="取消"
      confirmLoading={applying.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ kind: line.kinds[0], qty: 1, pics: [] }}
        data-testid="aftersale-apply-form"
      >
        <Form.Item name="kind" label="售后类型" rules={[{ required: true }]}>
          <Radio.Group
            options={line.kinds.map((k) => ({ value: k, label: AFTER_SALE_KIND_LABEL[k] }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item name="qty" label={`申请数量（最多 ${line.availableQty} 件）`} rules={[{ required: true }]}>
          <InputNumber min={1} max={line.availableQty} precision={0} />
        </Form.Item>
        <Form.Item name="reason" label="售后原因" rules={[{ required: true, message: '请选择售后原因' }]}>
          <Select
            placeholder="请选择售后原因"
            options={AFTER_SALE_REASONS.map((r) => ({ value: r, label: r }))}
          />
        </Form.Item>
        <Form.Item name="description" label="问题描述">
          <Input.TextArea maxLength={500} showCount rows={3} placeholder="请描述商品问题（选填）" />
        </Form.Item>
        <Form.Item name="pics" label={`图片凭证（最多 ${MAX_AFTER_SALE_PICS} 张）`}>
          <PicsUpload />
        </Form.Item>
      </Form>
    </Modal>
  );
}
