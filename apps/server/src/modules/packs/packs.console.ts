import { adminPromotionsApi as api } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from '../admin/admin.service';
import {
  approveCardBatch,
  createCardBatch,
  createPackProduct,
  exportCardBatch,
  freezeCard,
  listCardBatches,
  listPackProducts,
  rejectCardBatch,
  searchCards,
  updatePackProduct,
} from './packs-admin';

/**
 * The console's pack routes (a family of adminRoutes: its hooks check operator and site). The
 * master key hashes card codes (search by whole code) and seals a batch's file until its export.
 */
export const packsConsole =
  (masterKey: Buffer): FastifyPluginAsync =>
  async (app) => {
    serve(app, api.packProducts, async (req) => ok(await listPackProducts(operatorOf(req), req.query)));
    serve(app, api.createPackProduct, async (req) =>
      ok(await createPackProduct(operatorOf(req), req.body), '已创建'),
    );
    serve(app, api.updatePackProduct, async (req) =>
      ok(await updatePackProduct(operatorOf(req), req.body), '已保存'),
    );
    serve(app, api.cardBatches, async (req) => ok(await listCardBatches(operatorOf(req), req.query)));
    serve(app, api.createCardBatch, async (req) =>
      ok(await createCardBatch(operatorOf(req), req.body), '已提交，等待财务复核'),
    );
    serve(app, api.approveCardBatch, async (req) =>
      ok(await approveCardBatch(operatorOf(req), masterKey, req.body.batchId), '已复核，卡号已生成'),
    );
    serve(app, api.rejectCardBatch, async (req) =>
      ok(await rejectCardBatch(operatorOf(req), req.body.batchId, req.body.reason), '已驳回'),
    );
    // A file, once; a refusal before it still answers the envelope.
    serve(app, api.exportCardBatch, async (req, reply) => {
      const file = await exportCardBatch(operatorOf(req), masterKey, req.body.batchId);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.text);
    });
    serve(app, api.cards, async (req) => ok(await searchCards(operatorOf(req), masterKey, req.query)));
    serve(app, api.freezeCard, async (req) => ok(await freezeCard(operatorOf(req), req.body), '已更新'));
  };
