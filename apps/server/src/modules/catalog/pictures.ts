import { CATALOGUE_MSG, MAX_PRODUCT_PICTURES, type ProductPictures } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { forbidden, inScope, type OperatorCtx, requireSiteAccess, scopeOf } from '../admin/admin.service';
import { audited } from '../admin/audit';
import { storeUploadedImage } from '../media/uploads';
import { announceCatalogChange } from './catalog.service';
import { product, siteProduct } from './catalog.tables';

/**
 * A product's pictures (product.images, the first is the main one). They belong to the shared
 * product, so every site selling it shows them: an operator changes them only with
 * catalogue:manage on each of those sites, never for a site outside their scope. Each change
 * locks the product row, writes its audit row and announces the change to every such site
 * (their cached lists and search results show the main picture).
 */

/** Where an uploaded product picture is served (media routes): public, like any shop's pictures. */
export const PICTURE_URL_PREFIX = '/media';

const sitesOf = async (db: Db, productId: number) =>
  (
    await db
      .select({ siteId: siteProduct.siteId })
      .from(siteProduct)
      .where(eq(siteProduct.productId, productId))
      .orderBy(siteProduct.siteId)
  ).map((r) => r.siteId);

/**
 * The pictures as the site's operators see them: 404 for no such product, 403 when the site
 * does not sell it (another site's product is not this operator's to see or change).
 */
export async function productPictures(db: Db, siteId: number, productId: number): Promise<ProductPictures> {
  const [row] = await db.select({ images: product.images }).from(product).where(eq(product.id, productId));
  if (!row) throw new AppError(404, CATALOGUE_MSG.productMissing);
  const sites = await sitesOf(db, productId);
  if (!sites.includes(siteId)) throw forbidden(CATALOGUE_MSG.notListed);
  return { productId, images: row?.images ?? [], sites };
}

/** 403 unless the operator may change what every site selling the product shows. */
function requirePictureAccess(ctx: OperatorCtx, siteId: number, sites: number[]) {
  requireSiteAccess(ctx, 'catalogue:manage', siteId);
  if (!sites.includes(siteId)) throw forbidden(CATALOGUE_MSG.notListed);
  const scope = scopeOf(ctx, 'catalogue:manage');
  if (!sites.every((other) => inScope(scope, other))) throw forbidden(CATALOGUE_MSG.picturesShared);
}

/**
 * Changes the pictures: `next` gets the current list (read under the product's row lock) and
 * answers the new one, or throws to change nothing.
 */
async function changePictures(
  ctx: OperatorCtx,
  target: { siteId: number; productId: number },
  action: string,
  next: (images: string[]) => string[],
): Promise<{ pictures: ProductPictures; sites: number[] }> {
  return audited(ctx, async (tx, record) => {
    const [row] = await tx
      .select({ images: product.images })
      .from(product)
      .where(eq(product.id, target.productId))
      .for('update');
    if (!row) throw new AppError(404, CATALOGUE_MSG.productMissing);
    const sites = await sitesOf(tx, target.productId);
    requirePictureAccess(ctx, target.siteId, sites);
    const before = row.images;
    const after = next(before);
    await tx.update(product).set({ images: after }).where(eq(product.id, target.productId));
    await record({
      siteId: target.siteId,
      action,
      entity: 'product',
      entityId: target.productId,
      before: { images: before },
      after: { images: after },
    });
    for (const siteId of sites) await announceCatalogChange(tx, siteId);
    return { pictures: { productId: target.productId, images: after, sites }, sites };
  });
}

/**
 * Stores an uploaded picture (type told by its bytes, size and daily quota checked by the
 * media module) and adds it last. Access and room are checked before the file is stored, so a
 * refused upload leaves no file behind; they are checked again under the lock.
 */
export async function uploadPicture(
  ctx: OperatorCtx,
  dataDir: string | undefined,
  body: { siteId: number; productId: number; file?: unknown },
) {
  if (!dataDir) throw failure('文件上传暂不可用');
  requireSiteAccess(ctx, 'catalogue:manage', body.siteId);
  const current = await productPictures(ctx.db, body.siteId, body.productId);
  requirePictureAccess(ctx, body.siteId, current.sites);
  if (current.images.length >= MAX_PRODUCT_PICTURES) throw failure(CATALOGUE_MSG.picturesFull);
  const stored = await storeUploadedImage(ctx.db, dataDir, body.file, 'product', CATALOGUE_MSG.pictureFile);
  const url = `${PICTURE_URL_PREFIX}${stored.url}`;
  return changePictures(ctx, body, 'catalogue.picture.upload', (images) => {
    if (images.length >= MAX_PRODUCT_PICTURES) throw failure(CATALOGUE_MSG.picturesFull);
    return [...images, url];
  });
}

/** Puts the pictures in the given order (the first is the main picture): the same set, reordered. */
export function arrangePictures(
  ctx: OperatorCtx,
  body: { siteId: number; productId: number; images: string[] },
) {
  return changePictures(ctx, body, 'catalogue.picture.arrange', (images) => {
    const same =
      body.images.length === images.length &&
      new Set(body.images).size === images.length &&
      body.images.every((url) => images.includes(url));
    if (!same) throw failure(CATALOGUE_MSG.picturesChanged);
    return body.images;
  });
}

/** Removes one picture (its file stays: orders and audit rows may still show it). */
export function removePicture(ctx: OperatorCtx, body: { siteId: number; productId: number; url: string }) {
  return changePictures(ctx, body, 'catalogue.picture.remove', (images) => {
    if (!images.includes(body.url)) throw failure(CATALOGUE_MSG.pictureMissing);
    return images.filter((url) => url !== body.url);
  });
}
