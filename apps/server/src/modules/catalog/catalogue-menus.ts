import { CATALOGUE_MSG, type MenuLevel, type MenuNode, type SaveMenuBody } from '@sitemall/contract';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { forbidden, type OperatorCtx, requireSiteAccess } from '../admin/admin.service';
import { audited } from '../admin/audit';
import { announceCatalogChange } from './catalog.service';
import { category, categoryGroup, categoryLabel, siteProduct } from './catalog.tables';

/**
 * A site's category menu on the console: labels, their groups, their categories, each named,
 * ordered (sort) and possibly hidden from the storefront's menus; products moved between the
 * site's categories. Every write is audited in its transaction and announces the change (the
 * catalogue cache's NOTIFY drops every process's cached menus of the site).
 */

/** Each level's table, its name column and the column naming its parent. */
const LEVELS = {
  label: { table: categoryLabel, name: 'lableName', parent: undefined },
  group: { table: categoryGroup, name: 'levelName', parent: 'labelId' },
  category: { table: category, name: 'catName', parent: 'groupId' },
} as const;
const PARENT_LEVEL: Record<MenuLevel, MenuLevel | undefined> = {
  label: undefined,
  group: 'label',
  category: 'group',
};

/** The site's whole menu, hidden entries included, in menu order. */
export async function siteMenus(db: Db, siteId: number): Promise<MenuNode[]> {
  const [labels, groups, categories, counts] = await Promise.all([
    db
      .select()
      .from(categoryLabel)
      .where(eq(categoryLabel.siteId, siteId))
      .orderBy(asc(categoryLabel.sort), asc(categoryLabel.id)),
    db
      .select()
      .from(categoryGroup)
      .where(eq(categoryGroup.siteId, siteId))
      .orderBy(asc(categoryGroup.sort), asc(categoryGroup.id)),
    db
      .select()
      .from(category)
      .where(eq(category.siteId, siteId))
      .orderBy(asc(category.sort), asc(category.id)),
    db
      .select({ categoryId: siteProduct.categoryId, n: count() })
      .from(siteProduct)
      .where(eq(siteProduct.siteId, siteId))
      .groupBy(siteProduct.categoryId),
  ]);
  const productsIn = new Map(counts.map((c) => [c.categoryId, c.n]));
  const node = (level: MenuLevel, r: { id: number; sort: number; hidden: boolean }, name: string) => ({
    id: r.id,
    level,
    name,
    sort: r.sort,
    hidden: r.hidden,
    products: 0,
    children: [] as MenuNode[],
  });
  return labels.map((l) => ({
    ...node('label', l, l.lableName),
    children: groups
      .filter((g) => g.labelId === l.id)
      .map((g) => ({
        ...node('group', g, g.levelName),
        children: categories
          .filter((c) => c.groupId === g.id)
          .map((c) => ({ ...node('category', c, c.catName), products: productsIn.get(c.id) ?? 0 })),
      })),
  }));
}

/** 404 for no such entry, 403 for another site's: what is not the site's is not the operator's. */
async function siteOfEntry(db: Db, level: MenuLevel, id: number, siteId: number) {
  const { table } = LEVELS[level];
  const [row] = await db.select({ siteId: table.siteId }).from(table).where(eq(table.id, id));
  if (!row) throw new AppError(404, CATALOGUE_MSG.menuMissing);
  if (row.siteId !== siteId) throw forbidden(CATALOGUE_MSG.menuMissing);
}

/** Creates or edits one entry of the menu; answers its id. */
export async function saveMenu(ctx: OperatorCtx, body: SaveMenuBody): Promise<{ id: number }> {
  requireSiteAccess(ctx, 'catalogue:manage', body.siteId);
  const name = body.name.trim();
  if (!name) throw failure('名称不能为空');
  const level = LEVELS[body.level];
  const parentLevel = PARENT_LEVEL[body.level];
  if (body.id !== undefined) await siteOfEntry(ctx.db, body.level, body.id, body.siteId);
  if (body.parentId !== undefined) {
    if (!parentLevel) throw failure(CATALOGUE_MSG.menuParent);
    await siteOfEntry(ctx.db, parentLevel, body.parentId, body.siteId);
  } else if (parentLevel && body.id === undefined) throw failure(CATALOGUE_MSG.menuParent);

  const fields = {
    [level.name]: name,
    ...(body.sort === undefined ? {} : { sort: body.sort }),
    ...(body.hidden === undefined ? {} : { hidden: body.hidden }),
    ...(level.parent && body.parentId !== undefined ? { [level.parent]: body.parentId } : {}),
  };
  return audited(ctx, async (tx, record) => {
    const table = level.table;
    let id: number;
    let before: unknown = null;
    if (body.id === undefined) {
      const [created] = await tx
        .insert(table)
        .values({ siteId: body.siteId, ...fields } as never)
        .returning({ id: table.id });
      id = created?.id as number;
    } else {
      const [row] = await tx
        .select()
        .from(table)
        .where(and(eq(table.id, body.id), eq(table.siteId, body.siteId)))
        .for('update');
      before = row;
      await tx
        .update(table)
        .set(fields as never)
        .where(and(eq(table.id, body.id), eq(table.siteId, body.siteId)));
      id = body.id;
    }
    await record({
      siteId: body.siteId,
      action: body.id === undefined ? 'catalogue.menu.create' : 'catalogue.menu.edit',
      entity: `category_${body.level}`,
      entityId: id,
      before,
      after: fields,
    });
    await announceCatalogChange(tx, body.siteId);
    return { id };
  });
}

/** Puts the listed products under a category of the site (each one's old category in the audit row). */
export async function assignCategory(
  ctx: OperatorCtx,
  body: { siteId: number; categoryId: number; productIds: number[] },
): Promise<{ moved: number }> {
  requireSiteAccess(ctx, 'catalogue:manage', body.siteId);
  await siteOfEntry(ctx.db, 'category', body.categoryId, body.siteId);
  const ids = [...new Set(body.productIds)];
  return audited(ctx, async (tx, record) => {
    const where = and(eq(siteProduct.siteId, body.siteId), inArray(siteProduct.productId, ids));
    const before = await tx
      .select({ productId: siteProduct.productId, categoryId: siteProduct.categoryId })
      .from(siteProduct)
      .where(where)
      .for('update');
    // Every product must be one the site lists: another site's product is not this operator's.
    if (before.length !== ids.length) throw forbidden(CATALOGUE_MSG.notListed);
    await tx.update(siteProduct).set({ categoryId: body.categoryId }).where(where);
    await record({
      siteId: body.siteId,
      action: 'catalogue.menu.assign',
      entity: 'category_category',
      entityId: body.categoryId,
      before: Object.fromEntries(before.map((b) => [b.productId, b.categoryId])),
      after: { categoryId: body.categoryId, productIds: ids },
    });
    await announceCatalogChange(tx, body.siteId);
    return { moved: ids.length };
  });
}
