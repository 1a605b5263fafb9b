import {
  ADMIN_MSG,
  adminCatalogueApi as api,
  CATALOGUE_MSG,
  type CategoryTree,
  catalogApi,
  type LableList,
  type MenuNode,
} from '@sitemall/contract';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { category, siteProduct } from './catalog.tables';

/**
 * A site's category menu on the console (real app, real database): labels, groups and
 * categories created, renamed, reordered and hidden, products moved between categories; the
 * storefront's menus show each change at once (the catalogue cache drops the site's menus);
 * other sites' entries and products answer 403; names with markup are kept as text.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

const tree = async (siteId = 719) =>
  (await client(t).post<CategoryTree>(catalogApi.cateList.path, { siteId })).body.data.mallCateLables;
const labels = async (siteId = 719) =>
  (await client(t).post<LableList>(catalogApi.lableList.path, { siteId })).body.data.mallCateLables;
const menuAudits = async () =>
  (await t.db.select({ n: count() }).from(auditLog).where(like(auditLog.action, 'catalogue.menu.%')))[0]?.n ??
  0;
const save = (body: Record<string, unknown>, token = tokens.op719) =>
  admin.call(api.saveMenu, { siteId: 719, ...body }, token);

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('the category menu of a site', () => {
  let labelId: number;
  let groupId: number;
  let categoryId: number;

  it('creates a label, a group and a category; the storefront menu shows them at once', async () => {
    // Read first: the storefront's menu is cached now, and must not be stale after the writes.
    expect((await labels()).map((l) => l.lableName)).not.toContain('新品专区');
    const label = await save({ level: 'label', name: '新品专区', sort: 0 });
    expect(label.body.code).toBe(200);
    labelId = label.body.data.id;
    groupId = (await save({ level: 'group', parentId: labelId, name: '本周上新' })).body.data.id;
    const name = '<script>杯具</script>';
    categoryId = (await save({ level: 'category', parentId: groupId, name })).body.data.id;
    const shown = (await tree()).find((l) => l.id === labelId);
    expect(shown).toMatchObject({
      lableName: '新品专区',
      cateProductList: [{ levelId: groupId, levelName: '本周上新', id: categoryId, catName: name }],
    });
    const menus = await admin.call(api.menus, { siteId: 719 }, tokens.op719);
    const node = menus.body.data.list.find((l) => l.id === labelId);
    expect(node).toMatchObject({
      level: 'label',
      hidden: false,
      children: [{ id: groupId, level: 'group' }],
    });
    expect(await menuAudits()).toBe(3);
  });

  it('renames, reorders and hides; a hidden label leaves the menus, its products stay on sale', async () => {
    await save({ level: 'label', id: labelId, name: '新品首发', sort: 9_999 });
    let list = await labels();
    expect(list.at(-1)).toMatchObject({ id: labelId, lableName: '新品首发' });
    await save({ level: 'label', id: labelId, name: '新品首发', sort: 0 });
    list = await labels();
    expect(list.findIndex((l) => l.id === labelId)).toBeLessThan(list.length - 1);

    // A product moved into the new category, then the label hidden.
    const [listed] = await t.db
      .select({ productId: siteProduct.productId, categoryId: siteProduct.categoryId })
      .from(siteProduct)
      .where(eq(siteProduct.siteId, 719))
      .limit(1);
    const moved = await admin.call(
      api.assignCategory,
      { siteId: 719, categoryId, productIds: [listed?.productId] },
      tokens.op719,
    );
    expect(moved.body.data).toEqual({ moved: 1 });
    const inCategory = await client(t).post<{ list: { productId: number }[] }>(catalogApi.productList.path, {
      siteId: 719,
      cateId: categoryId,
    });
    expect(inCategory.body.code).toBe(200);

    await save({ level: 'label', id: labelId, name: '新品首发', hidden: true });
    expect((await labels()).map((l) => l.id)).not.toContain(labelId);
    expect((await tree()).map((l) => l.id)).not.toContain(labelId);
    const detail = await client(t).post(catalogApi.productDetail.path, {
      siteId: 719,
      productId: listed?.productId,
    });
    expect(detail.body.code).toBe(200);
    // Hiding a single category leaves its group's other entries in place.
    await save({ level: 'label', id: labelId, name: '新品首发', hidden: false });
    await save({ level: 'category', id: categoryId, name: '杯具', hidden: true });
    expect((await tree()).find((l) => l.id === labelId)?.cateProductList).toEqual([]);
    const menus = await admin.call(api.menus, { siteId: 719 }, tokens.op719);
    const nodes = menus.body.data.list as MenuNode[];
    const cat = nodes.find((l) => l.id === labelId)?.children[0]?.children[0];
    expect(cat).toMatchObject({ id: categoryId, hidden: true, products: 1 });
  });

  it('refuses other sites’ entries and products with 403, a missing parent, and unknown ids; nothing changes', async () => {
    const [foreign] = await t.db
      .select({ id: category.id, groupId: category.groupId })
      .from(category)
      .where(eq(category.siteId, 10110))
      .limit(1);
    const [foreignProduct] = await t.db
      .select({ productId: siteProduct.productId })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, 10110)))
      .limit(1);
    const on719 = new Set(
      (
        await t.db
          .select({ productId: siteProduct.productId })
          .from(siteProduct)
          .where(eq(siteProduct.siteId, 719))
      ).map((r) => r.productId),
    );
    const notOn719 = (
      await t.db
        .select({ productId: siteProduct.productId })
        .from(siteProduct)
        .where(eq(siteProduct.siteId, 10110))
    ).find((r) => !on719.has(r.productId))?.productId;
    expect(foreignProduct).toBeDefined();
    const audits = await menuAudits();
    const cases: [Promise<{ body: { code: number; msg: string } }>, number, string][] = [
      [save({ level: 'category', id: foreign?.id, name: '改名' }), 403, CATALOGUE_MSG.menuMissing],
      [
        save({ level: 'category', parentId: foreign?.groupId, name: '新分类' }),
        403,
        CATALOGUE_MSG.menuMissing,
      ],
      [save({ level: 'category', name: '无上级' }), 500, CATALOGUE_MSG.menuParent],
      [save({ level: 'label', parentId: groupId, name: '标签无上级' }), 500, CATALOGUE_MSG.menuParent],
      [save({ level: 'group', id: 999_999_999, name: '不存在' }), 404, CATALOGUE_MSG.menuMissing],
      [save({ level: 'label', name: '外站' }, tokens.cs10110), 403, ADMIN_MSG.forbidden],
      [
        admin.call(api.saveMenu, { siteId: 10110, level: 'label', name: '外站' }, tokens.op719),
        403,
        ADMIN_MSG.forbiddenSite,
      ],
      [
        admin.call(api.assignCategory, { siteId: 719, categoryId, productIds: [notOn719] }, tokens.op719),
        403,
        CATALOGUE_MSG.notListed,
      ],
      [
        admin.call(
          api.assignCategory,
          { siteId: 719, categoryId: foreign?.id, productIds: [notOn719] },
          tokens.op719,
        ),
        403,
        CATALOGUE_MSG.menuMissing,
      ],
    ];
    for (const [answer, code, msg] of cases) expect((await answer).body, msg).toMatchObject({ code, msg });
    for (const name of ['', '   ', 'x'.repeat(21)])
      expect((await save({ level: 'label', name })).body.code).not.toBe(200);
    expect(await menuAudits()).toBe(audits);
    const [still] = await t.db
      .select({ name: category.catName })
      .from(category)
      .where(eq(category.id, foreign?.id as number));
    expect(still?.name).not.toBe('改名');
  });
});
