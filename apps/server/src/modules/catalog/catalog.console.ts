import {
  adminCatalogueApi as api,
  CATALOGUE_MSG,
  LOW_STOCK_BELOW,
  type ProductPictures,
  XLSX_TYPE,
} from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { chinaTime } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from '../admin/admin.service';
import type { CatalogCache } from './catalog.service';
import {
  createProduct,
  exportProducts,
  listProduct,
  setLimit,
  setPrices,
  setSale,
  sharedProducts,
  shopChoices,
  siteCategories,
  siteProducts,
} from './catalogue-admin';
import { importProducts } from './catalogue-import';
import { assignCategory, saveMenu, siteMenus } from './catalogue-menus';
import { arrangePictures, productPictures, removePicture, uploadPicture } from './pictures';
import { adjustSpecStock, siteLowStock, siteStock, stockMoves } from './stock-admin';

/**
 * The console's catalogue and stock screens (contract `adminCatalogueApi`). The /admin-api hooks
 * have checked the route's permission on the payload's site already; the services check it
 * again for their writes and keep every read within the site.
 */
export const catalogConsole =
  (catalogs: Pick<CatalogCache, 'invalidate'>, dataDir?: string): FastifyPluginAsync =>
  async (app) => {
    /** After a write: this process drops the site's cached catalogue now, the others on the NOTIFY. */
    const changed = <T>(siteId: number, answer: T) => {
      catalogs.invalidate(siteId);
      return answer;
    };
    serve(app, api.products, async (req) => ok(await siteProducts(operatorOf(req), req.query)));
    serve(app, api.exportProducts, async (req, reply) => {
      const file = await exportProducts(operatorOf(req), req.query);
      const day = chinaTime(new Date(), 'YYYYMMDD');
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="products-${req.query.siteId}-${day}.xlsx"`)
        .send(file);
    });
    serve(app, api.categories, async (req) =>
      ok({ list: await siteCategories(operatorOf(req).db, req.query.siteId) }),
    );
    serve(app, api.shared, async (req) => ok(await sharedProducts(operatorOf(req), req.query)));
    serve(app, api.list, async (req) =>
      changed(req.body.siteId, ok(await listProduct(operatorOf(req), req.body), '商品已上架')),
    );
    serve(app, api.setPrices, async (req) =>
      changed(req.body.siteId, ok(await setPrices(operatorOf(req), req.body), '站点价已保存')),
    );
    serve(app, api.setSale, async (req) =>
      changed(
        req.body.siteId,
        ok(await setSale(operatorOf(req), req.body), req.body.isOnSale ? '已上架' : '已下架'),
      ),
    );
    serve(app, api.setLimit, async (req) =>
      changed(req.body.siteId, ok(await setLimit(operatorOf(req), req.body), '限购已保存')),
    );

    serve(app, api.shops, async (req) => ok({ list: await shopChoices(operatorOf(req).db) }));
    serve(app, api.create, async (req) =>
      changed(req.body.siteId, ok(await createProduct(operatorOf(req), req.body), '商品已创建并上架')),
    );

    /** A picture change shows on every site selling the product: each of them drops its cache. */
    const pictured = async (change: Promise<{ pictures: ProductPictures; sites: number[] }>, msg: string) => {
      const { pictures, sites } = await change;
      for (const siteId of sites) catalogs.invalidate(siteId);
      return ok(pictures, msg);
    };
    serve(app, api.pictures, async (req) =>
      ok(await productPictures(operatorOf(req).db, req.query.siteId, req.query.productId)),
    );
    serve(app, api.uploadPicture, async (req) =>
      pictured(uploadPicture(operatorOf(req), dataDir, req.body), '图片已上传'),
    );
    serve(app, api.arrangePictures, async (req) =>
      pictured(arrangePictures(operatorOf(req), req.body), '图片顺序已保存'),
    );
    serve(app, api.removePicture, async (req) =>
      pictured(removePicture(operatorOf(req), req.body), '图片已删除'),
    );
    serve(app, api.menus, async (req) => ok({ list: await siteMenus(operatorOf(req).db, req.query.siteId) }));
    serve(app, api.saveMenu, async (req) =>
      changed(req.body.siteId, ok(await saveMenu(operatorOf(req), req.body), '已保存')),
    );
    serve(app, api.assignCategory, async (req) =>
      changed(req.body.siteId, ok(await assignCategory(operatorOf(req), req.body), '已归入分类')),
    );
    serve(app, api.importProducts, async (req) => {
      const report = await importProducts(operatorOf(req), req.body);
      if (report.applied) catalogs.invalidate(req.body.siteId);
      const msg = report.errors
        ? CATALOGUE_MSG.importHasErrors
        : report.applied
          ? CATALOGUE_MSG.importDone
          : CATALOGUE_MSG.importChecked;
      return ok(report, msg);
    });

    serve(app, api.stock, async (req) => ok(await siteStock(operatorOf(req), req.query)));
    serve(app, api.lowStock, async (req) =>
      ok({ list: await siteLowStock(operatorOf(req), req.query.siteId, req.query.below ?? LOW_STOCK_BELOW) }),
    );
    serve(app, api.moves, async (req) => ok(await stockMoves(operatorOf(req), req.query)));
    serve(app, api.adjust, async (req) => ok(await adjustSpecStock(operatorOf(req), req.body), '库存已调整'));
  };
