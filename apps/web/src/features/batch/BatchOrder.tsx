import type { BatchPreview } from '@sitemall/contract';
import { App, Steps } from 'antd';
import { useState } from 'react';
import { useBatchPreview, useBatchReport, useBatchSubmit, useBatchTemplate } from './api.ts';
import { uploadRefusal } from './lib.ts';
import { PreviewStep } from './steps/PreviewStep.tsx';
import { ResultStep } from './steps/ResultStep.tsx';
import { TemplateStep } from './steps/TemplateStep.tsx';
import { UploadStep } from './steps/UploadStep.tsx';
import './batch.css';

type Step = 0 | 1 | 2 | 3;
const errorText = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);

/**
 * /batchOrder (spec section 2): download the template, upload a filled sheet, preview every
 * row with its errors and the totals per recipient, submit one order per recipient. This page
 * only moves between the steps; each call is a mutation of `./api.ts`.
 */
export function BatchOrder() {
  const { message } = App.useApp();
  const [step, setStep] = useState<Step>(0);
  const [checked, setChecked] = useState<{ file: File; preview: BatchPreview } | null>(null);
  const [uploadError, setUploadError] = useState('');
  const template = useBatchTemplate();
  const previewing = useBatchPreview();
  const submission = useBatchSubmit();
  const report = useBatchReport();

  const getTemplate = () =>
    template.mutate(undefined, { onError: (error) => void message.error(errorText(error, '模板下载失败')) });

  const upload = (chosen: File) => {
    const refusal = uploadRefusal(chosen);
    setUploadError(refusal);
    if (refusal) return;
    previewing.mutate(chosen, {
      onSuccess: (preview) => {
        setChecked({ file: chosen, preview });
        setStep(2);
      },
      onError: (error) => setUploadError(errorText(error, '文件校验失败')),
    });
  };

  const submit = () => {
    if (!checked) return;
    submission.mutate(checked.file, {
      onSuccess: () => setStep(3),
      onError: (error) => void message.error(errorText(error, '批量下单失败')),
    });
  };

  const getReport = () => {
    if (!checked) return;
    report.mutate(checked.file, {
      onError: (error) => void message.error(errorText(error, '结果报表下载失败')),
    });
  };

  const restart = () => {
    setChecked(null);
    submission.reset();
    setUploadError('');
    setStep(1);
  };

  return (
    <section className="page-card batch-order" data-testid="batch-order">
      <h2 className="page-card__title">批量下单</h2>
      <p className="batch-order__lead">
        按模板填写商品与收货信息，上传后逐行校验；收货人、手机号和地址相同的行合并为一个订单，每个订单独立提交。
      </p>
      <Steps
        className="batch-order__steps"
        current={step}
        items={[{ title: '下载模板' }, { title: '上传文件' }, { title: '预览' }, { title: '提交' }]}
      />
      {step === 0 && (
        <TemplateStep busy={template.isPending} onDownload={getTemplate} onNext={() => setStep(1)} />
      )}
      {step === 1 && (
        <UploadStep
          busy={previewing.isPending}
          error={uploadError}
          onFile={upload}
          onBack={() => setStep(0)}
        />
      )}
      {step === 2 && checked && (
        <PreviewStep
          preview={checked.preview}
          fileName={checked.file.name}
          busy={submission.isPending}
          onSubmit={submit}
          onRestart={restart}
        />
      )}
      {step === 3 && submission.data && (
        <ResultStep
          result={submission.data}
          busy={report.isPending}
          onReport={getReport}
          onRestart={restart}
        />
      )}
    </section>
  );
}
