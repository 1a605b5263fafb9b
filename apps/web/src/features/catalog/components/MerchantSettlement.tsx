import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  chinaTime,
  MERCHANT_STATUS,
  type MerchantApplication,
  type MerchantApplyInput,
} from '@sitemall/contract';
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  List,
  Result,
  Row,
  Steps,
  Tag,
  Upload,
  type UploadFile,
} from 'antd';
import { useState } from 'react';
import { ImageCodeField, refreshImageCode, useImageCode } from '../../../shared/ImageCode.tsx';
import { useSite } from '../../../site/SiteProvider.tsx';
import { FormAutoComplete } from '../../../ui/FormSelect.tsx';
import { lengthRules, validIf } from '../../../ui/rules.ts';
import { uploadLicence, useMerchantApply, useMerchantLookup } from '../api.ts';
import { isCreditCode, LICENCE_TYPES, licenceFileProblem } from '../lib/merchant.ts';
import { ContactPhoneItem } from './ContactPhoneItem.tsx';

const STATUS_COLOR: Record<number, string> = {
  [MERCHANT_STATUS.pending]: 'processing',
  [MERCHANT_STATUS.approved]: 'success',
  [MERCHANT_STATUS.rejected]: 'error',
};

function StatusTag({ application }: { application: MerchantApplication }) {
  return (
    <Tag color={STATUS_COLOR[application.status] ?? 'default'} data-testid="merchant-status">
      {application.statusText}
    </Tag>
  );
}

interface FormValues extends Omit<MerchantApplyInput, 'licenceUrl'> {
  licence: UploadFile[];
}

/** The licence picture: checked here for type and size, then uploaded; the form keeps its url. */
function LicenceUpload({
  value,
  onChange,
}: {
  value?: UploadFile[];
  onChange?: (files: UploadFile[]) => void;
}) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  return (
    <Upload
      name="file"
      customRequest={({ file, onSuccess, onError }) => {
        uploadLicence(siteId ?? '', file as File).then(
          (answer) => onSuccess?.(answer),
          (error: Error) => onError?.(error),
        );
      }}
      accept={LICENCE_TYPES.join(',')}
      listType="picture-card"
      maxCount={1}
      fileList={value ?? []}
      beforeUpload={(file) => {
        const problem = licenceFileProblem(file);
        if (problem) {
          void message.error(problem);
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      onChange={({ file: changed, fileList }) => {
        if (changed.status === 'error') void message.error(changed.error?.message || '上传失败，请重试');
        onChange?.(
          fileList.map((file) =>
            file.status === 'done' ? { ...file, url: (file.response as { url: string }).url } : file,
          ),
        );
      }}
    >
      {(value ?? []).length === 0 && (
        <button type="button" className="upload-trigger">
          <PlusOutlined />
          <div>上传执照</div>
        </button>
      )}
    </Upload>
  );
}

function ApplicationList({
  list,
  loading = false,
  emptyText = '该手机号暂无入驻申请',
}: {
  list: MerchantApplication[];
  loading?: boolean;
  emptyText?: string;
}) {
  return (
    <List<MerchantApplication>
      size="small"
      loading={loading}
      dataSource={list}
      locale={{ emptyText }}
      renderItem={(row) => (
        <List.Item key={row.applyId} extra={<StatusTag application={row} />}>
          <List.Item.Meta
            title={row.shopName}
            description={
              <>
                {row.companyName} · {chinaTime(row.createdAt, 'YYYY-MM-DD HH:mm')}
                {row.rejectReason && <div className="merchant__reason">未通过原因：{row.rejectReason}</div>}
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}

/**
 * Earlier applications by phone. The server shows them to a person only, so the look-up
 * carries an image code (one per look-up; the next is drawn after each).
 */
function ApplicationLookup() {
  const { siteId } = useSite();
  const [form] = Form.useForm<{ phone: string; imageCode: string }>();
  const captcha = useImageCode(siteId, 'merchantStatus');
  const lookup = useMerchantLookup(siteId ?? '');
  const search = (values: { phone: string; imageCode: string }) => {
    if (!captcha.data) return;
    lookup.mutate(
      { phone: values.phone.trim(), captchaId: captcha.data.captchaId, imageCode: values.imageCode.trim() },
      { onSettled: () => refreshImageCode(form, captcha) },
    );
  };
  return (
    <Form form={form} onFinish={search} className="merchant__lookup-form">
      <ContactPhoneItem placeholder="申请时填写的手机号" />
      <ImageCodeField form={form} captcha={captcha} size="middle" required />
      <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={lookup.isPending} block>
        查询
      </Button>
      {(lookup.data || lookup.isError) && (
        <div className="merchant__lookup-result">
          <ApplicationList
            list={lookup.data?.list ?? []}
            emptyText={lookup.isError ? lookup.error.message : undefined}
          />
        </div>
      )}
    </Form>
  );
}

/**
 * /businessSettlement: the onboarding application (checked here and again by the server),
 * the answer with its audit status, and a lookup of earlier applications by phone.
 */
export function MerchantSettlement({ categoryNames }: { categoryNames: string[] }) {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const apply = useMerchantApply(siteId ?? '');
  const [submitted, setSubmitted] = useState<{ application: MerchantApplication; phone: string } | null>(
    null,
  );

  const submit = async (values: FormValues) => {
    const licenceUrl = values.licence.find((f) => f.status === 'done' && f.url)?.url;
    if (!licenceUrl) {
      form.setFields([{ name: 'licence', errors: ['请等待营业执照上传完成'] }]);
      return;
    }
    const { licence: _licence, ...rest } = values;
    try {
      const application = await apply.mutateAsync({
        ...rest,
        intro: rest.intro?.trim() || undefined,
        licenceUrl,
      });
      setSubmitted({ application, phone: values.phone });
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  if (submitted) {
    const { application, phone } = submitted;
    return (
      <Card className="merchant">
        <Result
          status="success"
          title="入驻申请已提交"
          subTitle={`申请编号 ${application.applyId}，我们将在 3 个工作日内完成审核，结果以短信通知 ${phone}。`}
          extra={[
            <Button
              key="again"
              onClick={() => {
                form.resetFields();
                setSubmitted(null);
              }}
            >
              再提交一份
            </Button>,
          ]}
        >
          <div className="merchant__result" data-testid="merchant-result">
            <p>
              店铺名称：<b>{application.shopName}</b>　企业名称：{application.companyName}
            </p>
            <p>
              审核状态：
              <StatusTag application={application} />
            </p>
          </div>
        </Result>
        <ApplicationList list={[application]} />
      </Card>
    );
  }

  return (
    <div className="merchant">
      <Card className="merchant__intro">
        <h1 className="merchant__title">商家入驻</h1>
        <p className="merchant__lead">欢迎优质品牌与商家入驻，共享平台会员与流量。</p>
        <Steps
          size="small"
          current={0}
          items={[
            { title: '提交资料', description: '企业信息与营业执照' },
            { title: '平台审核', description: '3 个工作日内' },
            { title: '签约开店', description: '上架商品，开始经营' },
          ]}
        />
      </Card>
      <Row gutter={16}>
        <Col span={16}>
          <Card title="入驻申请" className="merchant__form">
            <Form<FormValues>
              form={form}
              layout="horizontal"
              labelCol={{ span: 5 }}
              wrapperCol={{ span: 17 }}
              onFinish={(values) => void submit(values)}
              initialValues={{ licence: [] }}
              scrollToFirstError
            >
              <Form.Item
                label="企业名称"
                name="companyName"
                rules={lengthRules('企业名称', { min: 4, max: 60 })}
              >
                <Input placeholder="与营业执照一致" maxLength={60} />
              </Form.Item>
              <Form.Item
                label="统一社会信用代码"
                name="creditCode"
                normalize={(value: string) => value?.toUpperCase().replace(/\s/g, '')}
                rules={[
                  { required: true, message: '请输入统一社会信用代码' },
                  validIf(isCreditCode, '请输入 18 位统一社会信用代码'),
                ]}
              >
                <Input placeholder="18 位，见营业执照" maxLength={18} />
              </Form.Item>
              <Form.Item
                label="店铺名称"
                name="shopName"
                rules={lengthRules('店铺名称', { min: 2, max: 30 })}
              >
                <Input placeholder="开店后展示给顾客的名称" maxLength={30} />
              </Form.Item>
              <Form.Item
                label="主营类目"
                name="mainCategory"
                rules={lengthRules('主营类目', { min: 2, max: 20, requiredMessage: '请选择或输入主营类目' })}
              >
                <FormAutoComplete
                  options={categoryNames.map((name) => ({ value: name }))}
                  placeholder="选择或输入主营类目"
                  filterOption={(input, option) => String(option?.value ?? '').includes(input)}
                  maxLength={20}
                />
              </Form.Item>
              <Form.Item
                label="联系人"
                name="contactName"
                rules={lengthRules('联系人姓名', { min: 2, max: 20 })}
              >
                <Input maxLength={20} />
              </Form.Item>
              <ContactPhoneItem label="手机号码" />
              <Form.Item
                label="营业执照"
                name="licence"
                required
                extra="PNG、JPG 或 WebP 图片，不超过 2MB"
                rules={[
                  {
                    validator: (_, files: UploadFile[] | undefined) =>
                      files?.some((f) => f.status === 'done')
                        ? Promise.resolve()
                        : Promise.reject(new Error('请上传营业执照')),
                  },
                ]}
              >
                <LicenceUpload />
              </Form.Item>
              <Form.Item label="店铺简介" name="intro" rules={[{ max: 500, message: '简介不超过 500 字' }]}>
                <Input.TextArea
                  rows={4}
                  maxLength={500}
                  showCount
                  placeholder="主营品牌、经营优势等（选填）"
                />
              </Form.Item>
              <Form.Item wrapperCol={{ offset: 5, span: 17 }}>
                <Button type="primary" htmlType="submit" size="large" loading={apply.isPending}>
                  提交申请
                </Button>
              </Form.Item>
            </Form>
          </Card>
        </Col>
        <Col span={8}>
          <Card title="查询入驻进度" className="merchant__lookup">
            <ApplicationLookup />
          </Card>
          <Card title="入驻须知" className="merchant__rules">
            <ol>
              <li>请确保所填企业信息与营业执照一致。</li>
              <li>审核通过后，平台将联系您签署入驻协议。</li>
              <li>商家违规将按规则处以 100、200、500 元罚款，情节严重者清退。</li>
            </ol>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
