import type { BatchPreview, BatchSubmitResult } from '@sitemall/contract';
import { download, request, saveFile } from '../../api/request.ts';

/** Batch ordering calls (server: apps/server/src/modules/order/batch.routes.ts). */

export async function downloadTemplate(siteId: string): Promise<void> {
  saveFile(await download('/api/batchOrder/template', { siteId }, { fileName: '批量下单模板.xlsx' }));
}

/** Uploads the sheet and answers its checked rows, groups and totals. */
export async function previewBatch(siteId: string, file: Blob): Promise<BatchPreview> {
  const answer = await request<BatchPreview>('/api/batchOrder/preview', { siteId, file }, { repeat: true });
  if (answer.code !== 200 || !answer.data) throw new Error(answer.msg || '文件校验失败');
  return answer.data;
}

/** Submits the same sheet: one order per recipient; a second submission makes no duplicates. */
export async function submitBatch(siteId: string, file: Blob): Promise<BatchSubmitResult> {
  const answer = await request<BatchSubmitResult>(
    '/api/batchOrder/submit',
    { siteId, file },
    { repeat: true },
  );
  if (answer.code !== 200 || !answer.data) throw new Error(answer.msg || '批量下单失败');
  return answer.data;
}

export async function downloadReport(siteId: string, file: Blob): Promise<void> {
  saveFile(await download('/api/batchOrder/report', { siteId, file }, { fileName: '批量下单结果.xlsx' }));
}
