import { batchApi } from '@sitemall/contract';
import { call, callFile } from '../../api/client.ts';
import { saveFile } from '../../api/request.ts';

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
