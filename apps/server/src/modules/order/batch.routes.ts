import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BATCH_MSG,
  BatchFileBody,
  BatchPreviewReply,
  BatchSubmitReply,
  DEFAULT_ORDER_EXPIRE_MINUTES,
  SiteId,
} from '@sitemall/contract';
import type { FastifyReply } from 'fastify';
import { ok } from '../../lib/envelope';
import { badRequest } from '../../lib/errors';
import { memberCtx } from '../cart/cart.service';
import { batchReport, batchTemplate, previewBatch, submitBatch } from './batch';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The uploaded sheet: multipart gives files as Buffers; anything else is "no file". */
function fileOf(body: BatchFileBody): Buffer {
  const file = body.file;
  if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest(BATCH_MSG.noFile);
  return file;
}

const sendXlsx = (reply: FastifyReply, name: string, ascii: string, data: Buffer) =>
  reply
    .type(XLSX)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .header('cache-control', 'no-store')
    .send(data);

/** Batch ordering (/batchOrder): template, preview, submit and result report. */
export const batchRoutes: FastifyPluginAsyncTypebox<{ orderExpireMinutes?: number }> = async (app, opts) => {
  const tags = ['batchOrder'];
  const config = { auth: 'required' as const, site: 'required' as const };
  const expireMinutes = opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES;

  app.route({
    method: ['GET', 'POST'],
    url: '/api/batchOrder/template',
    config,
    schema: {
      tags,
      summary: '下载批量下单模板（xlsx）',
      querystring: Type.Object({ siteId: Type.Optional(SiteId) }),
    },
    handler: async (_req, reply) =>
      sendXlsx(reply, '批量下单模板.xlsx', 'batch-order-template.xlsx', await batchTemplate()),
  });

  app.post(
    '/api/batchOrder/preview',
    {
      config,
      schema: {
        tags,
        summary: '上传并校验批量下单文件（xlsx 或 csv，multipart 字段 file）',
        consumes: ['multipart/form-data'],
        body: BatchFileBody,
        response: { 200: BatchPreviewReply },
      },
    },
    async (req) => ok(await previewBatch(memberCtx(req.ctx), fileOf(req.body))),
  );

  app.post(
    '/api/batchOrder/submit',
    {
      config,
      schema: {
        tags,
        summary: '提交批量订单（同一文件；每个收货人一个订单，可重复提交而不重复下单）',
        consumes: ['multipart/form-data'],
        body: BatchFileBody,
        response: { 200: BatchSubmitReply },
      },
    },
    async (req) =>
      ok(await submitBatch(memberCtx(req.ctx), fileOf(req.body), { expireMinutes }), BATCH_MSG.submitted),
  );

  app.post(
    '/api/batchOrder/report',
    {
      config,
      schema: {
        tags,
        summary: '下载批量下单结果（xlsx）',
        consumes: ['multipart/form-data'],
        body: BatchFileBody,
      },
    },
    async (req, reply) =>
      sendXlsx(
        reply,
        '批量下单结果.xlsx',
        'batch-order-report.xlsx',
        await batchReport(memberCtx(req.ctx), fileOf(req.body)),
      ),
  );
};
