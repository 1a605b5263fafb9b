import { batchApi } from '@sitemall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, callFile } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import { saveFile } from '../../api/request.ts';
import { useSite } from '../../site/SiteProvider.tsx';

/** Batch ordering calls, declared in `batchApi` (packages/contract/src/batch.ts). */

export async function downloadTemplate(siteId: string): Promise<void> {
  saveFile(await callFile(batchApi.template, { siteId }, { fileName: '批量下单模板.xlsx' }));
}

/** Uploads the sheet and answers its checked rows, groups and totals. */
export const previewBatch = (siteId: string, file: Blob) =>
  call(batchApi.preview, { siteId, file }, { repeat: true });

/** Submits the same sheet: one order per recipient; a second submission makes no duplicates. */
export const submitBatch = (siteId: string, file: Blob) =>
  call(batchApi.submit, { siteId, file }, { repeat: true });

export async function downloadReport(siteId: string, file: Blob): Promise<void> {
  saveFile(await callFile(batchApi.report, { siteId, file }, { fileName: '批量下单结果.xlsx' }));
}

/** The batch page's calls as mutations: each step shows its own pending state. */
export function useBatchTemplate() {
  const { siteId } = useSite();
  return useMutation({ mutationFn: () => downloadTemplate(siteId ?? '') });
}

export function useBatchPreview() {
  const { siteId } = useSite();
  return useMutation({ mutationFn: (file: File) => previewBatch(siteId ?? '', file) });
}

/** The submitted orders are the member's new pending orders: the order lists re-read them. */
export function useBatchSubmit() {
  const { siteId } = useSite();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => submitBatch(siteId ?? '', file),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.order.all(siteId ?? '') }),
  });
}

export function useBatchReport() {
  const { siteId } = useSite();
  return useMutation({ mutationFn: (file: File) => downloadReport(siteId ?? '', file) });
}
