import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  batchApi as api,
  BATCH_MSG,
  type BatchFileBody,
  DEFAULT_ORDER_EXPIRE_MINUTES,
  XLSX_TYPE,
} from '@sitemall/contract';
import type { FastifyReply } from 'fastify';
import { ok } from '../../lib/envelope';
import { badRequest } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { memberCtx } from '../cart/cart.service';
import { batchReport, batchTemplate, previewBatch, submitBatch } from './batch';

/** The uploaded sheet: multipart gives files as Buffers; anything else is "no file". */
function fileOf(body: BatchFileBody): Buffer {
  const file = body.file;
  if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest(BATCH_MSG.noFile);
  return file;
}

const sendXlsx = (reply: FastifyReply, name: string, ascii: string, data: Buffer) =>
  reply
    .type(XLSX_TYPE)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .header('cache-control', 'no-store')
    .send(data);

/** Batch ordering (/batchOrder): template, preview, submit and result report (`batchApi`). */
export const batchRoutes: FastifyPluginAsyncTypebox<{ orderExpireMinutes?: number }> = async (app, opts) => {
  const expireMinutes = opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES;

  serve(app, api.template, async (_req, reply) =>
    sendXlsx(reply, '批量下单模板.xlsx', 'batch-order-template.xlsx', await batchTemplate()),
  );
  serve(app, api.preview, async (req) => ok(await previewBatch(memberCtx(req.ctx), fileOf(req.body))));
  serve(app, api.submit, async (req) =>
    ok(await submitBatch(memberCtx(req.ctx), fileOf(req.body), { expireMinutes }), BATCH_MSG.submitted),
  );
  serve(app, api.report, async (req, reply) =>
    sendXlsx(
      reply,
      '批量下单结果.xlsx',
      'batch-order-report.xlsx',
      await batchReport(memberCtx(req.ctx), fileOf(req.body)),
    ),
  );
};
