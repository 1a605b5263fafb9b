import {
  ModalForm,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { adminApi, type IssueBatch } from '@sitemall/contract';
import { App, Button } from 'antd';
import { call } from '../api';
import { toFen, yuan } from '../format';
import { useSitesWith } from '../session';
import { CsvModalForm } from './CsvModalForm';

/** What the maker sees once a draft is submitted: issued now, or waiting for the second operator. */
export function useSubmitDraft() {
  const { message } = App.useApp();
  return async (draft: IssueBatch) => {
    const submitted = await call(adminApi.submitBatch, { batchId: draft.id });
    if (submitted.status === 'executed') message.success(`已发放 ${yuan(submitted.totalAmount)}`);
    else message.info(`发放单 #${submitted.id} 金额超过站点阈值，已提交，等待财务复核`);
    return submitted;
  };
}

const useIssueSites = () => useSitesWith('points:manage');

/** Makes a draft and submits it at once (the toasts of useSubmitDraft), or shows the refusal; true when done. */
function useIssue(onDone: () => void) {
  const { message } = App.useApp();
  const submitDraft = useSubmitDraft();
  return async (makeDraft: () => Promise<IssueBatch>) => {
    try {
      await submitDraft(await makeDraft());
      onDone();
      return true;
    } catch (e) {
      message.error((e as Error).message);
      return false;
    }
  };
}

const IssueReasonField = () => (
  <ProFormTextArea
    name="reason"
    label="发放原因"
    rules={[{ required: true, message: '请填写操作原因' }]}
    fieldProps={{ maxLength: 200 }}
  />
);

/** Points to one member: a draft, submitted at once by its maker. */
export function IssueOneForm({
  account,
  siteId,
  onDone,
}: {
  account?: string;
  siteId?: number;
  onDone: () => void;
}) {
  const issue = useIssue(onDone);
  const sites = useIssueSites();
  return (
    <ModalForm<{ siteId: number; account: string; yuan: number; note?: string; reason: string }>
      title="积分发放"
      width={480}
      trigger={<Button type={account ? 'link' : 'primary'}>{account ? '发放积分' : '单个发放'}</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={{ siteId: siteId ?? sites.initial, account }}
      onFinish={(form) =>
        issue(() =>
          call(adminApi.issuePoints, {
            siteId: form.siteId,
            account: form.account,
            amount: toFen(form.yuan),
            note: form.note,
            reason: form.reason,
          }),
        )
      }
    >
      <ProFormSelect
        name="siteId"
        label="站点"
        options={sites.options}
        rules={[{ required: true }]}
        disabled={!!siteId}
      />
      <ProFormText
        name="account"
        label="会员手机号或用户名"
        rules={[{ required: true, max: 32 }]}
        disabled={!!account}
      />
      <ProFormDigit
        name="yuan"
        label="发放数额"
        min={0.01}
        max={1_000_000}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ProFormText name="note" label="备注（会员可见）" rules={[{ max: 200 }]} />
      <IssueReasonField />
    </ModalForm>
  );
}

/** Points from a CSV file ("手机号或用户名,金额,备注[,请求号]"): unreadable lines are listed, never issued. */
export function IssueCsvForm({ onDone }: { onDone: () => void }) {
  const { message } = App.useApp();
  const issue = useIssue(onDone);
  const sites = useIssueSites();
  return (
    <CsvModalForm<{ siteId: number; reason: string }>
      title="批量发放（CSV）"
      trigger={<Button>批量发放</Button>}
      hint="每行：手机号或用户名,金额（元）,备注[,请求号]；首行可为表头"
      initialValues={{ siteId: sites.initial }}
      fields={
        <ProFormSelect name="siteId" label="站点" options={sites.options} rules={[{ required: true }]} />
      }
      onFinish={(form, file) =>
        issue(async () => {
          const draft = await call(adminApi.issuePointsCsv, {
            siteId: form.siteId,
            fileName: file.name,
            text: file.text,
            reason: form.reason,
          });
          if (draft.refused.length > 0)
            message.warning(`${draft.refused.length} 行无法读取，不会发放（见发放单明细）`);
          return draft;
        })
      }
    >
      <IssueReasonField />
    </CsvModalForm>
  );
}
