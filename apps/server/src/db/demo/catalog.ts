import { and, eq, sql } from 'drizzle-orm';
import {
  advertProduct,
  category,
  categoryGroup,
  categoryLabel,
  product,
  productSpecification,
  shop,
  sitePrice,
  siteProduct,
  tinyPage,
} from '../../modules/catalog/catalog.tables';
import { indexTerms } from '../../modules/catalog/search-terms';
import { mallNotice, serviceChannel } from '../../modules/service/service.tables';
import { advert } from '../../modules/site/site.tables';
import type { Db } from '../client';
import { DEMO_LABELS, DEMO_SHOPS, type DemoKind, ITEM_SOURCE_OVERRIDES, SPECIAL_KINDS } from './catalog-data';
import type { DemoSite } from './sites';

/** Deterministic numbers from a text (FNV-1a), so the demo is the same on every run. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const yuan = (text: string) => Math.round(Number(text) * 100);
const esc = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

interface KindPlace {
  kind: DemoKind;
  lableName: string;
  levelName: string;
}
export const DEMO_KINDS: KindPlace[] = DEMO_LABELS.flatMap((label) =>
  label.groups.flatMap((group) =>
    group.kinds.map((kind) => ({ kind, lableName: label.lableName, levelName: group.levelName })),
  ),
);
const KIND_BY_CODE = new Map(DEMO_KINDS.map((k) => [k.kind.code, k]));

export interface DemoProduct {
  id: number;
  kind: string;
  brand: string;
  name: string;
  shopName: string;
  source: number;
  orderType: number;
  basePrice: number;
  marketPrice: number;
  specifications: { value: string; price: number; stock: number }[];
}

/** Every product of the demo catalogue, ids 1.. in data order. */
export function demoProducts(): DemoProduct[] {
  const out: DemoProduct[] = [];
  for (const { kind } of DEMO_KINDS) {
    for (const item of kind.items) {
      const [brand = '', name = '', price = '0', specs = '', market = '0'] = item.split('|');
      const basePrice = yuan(price);
      const ownShop = DEMO_SHOPS.find((s) => s.brands.includes(brand));
      const id = out.length + 1;
      out.push({
        id,
        kind: kind.code,
        brand,
        name,
        shopName: ownShop?.shopName ?? kind.shop,
        source:
          ITEM_SOURCE_OVERRIDES[name.slice(name.indexOf(' ') + 1)] ??
          ITEM_SOURCE_OVERRIDES[name] ??
          kind.source,
        orderType: kind.orderType ?? 1,
        basePrice,
        marketPrice: yuan(market),
        specifications: specs.split(',').map((spec, i) => {
          const [, value = spec, delta] = /^(.*?)([+-]\d+(?:\.\d+)?)?$/.exec(spec) ?? [];
          const h = hashOf(`${name}/${value}`);
          return {
            value,
            price: Math.max(100, basePrice + (delta ? yuan(delta) : 0)),
            // Most in stock; now and then one sold out, so the storefront shows both.
            stock: h % 11 === 0 ? 0 : 20 + (h % 480) + i,
          };
        }),
      });
    }
  }
  return out;
}

function productRow(p: DemoProduct, shopId: number) {
  const place = KIND_BY_CODE.get(p.kind);
  const kind = place?.kind;
  const catName = kind?.catName ?? '';
  const name = indexTerms(`${p.brand} ${p.name}`);
  const keywords = indexTerms([...(kind?.keywords ?? []), catName, place?.levelName ?? ''].join(' '));
  const virtual = p.orderType === 2;
  const subtitle = `${p.brand}正品 · ${virtual ? '电子卡券自动发放，无需收货地址' : '全国包邮 · 7天无理由退货'}`;
  const specs = p.specifications.map((s) => esc(s.value)).join(' / ');
  const detail = [
    `<h3>商品介绍</h3><p>${esc(p.name)}，${esc(catName)}精选好物，由${esc(p.shopName)}提供。</p>`,
    `<table><tr><th>品牌</th><td>${esc(p.brand)}</td></tr><tr><th>品类</th><td>${esc(catName)}</td></tr><tr><th>规格</th><td>${specs}</td></tr></table>`,
    `<p><img src="/media/product/${p.id}-2.svg" alt="${esc(p.name)}"/></p><p><img src="/media/product/${p.id}-3.svg" alt="${esc(p.name)}"/></p>`,
    `<h3>售后保障</h3><p>${virtual ? '卡券类商品发放后不支持退换。' : '支持7天无理由退货、15天换货，商品质量问题由商家承担运费。'}</p>`,
  ].join('');
  return {
    id: p.id,
    shopId,
    kind: p.kind,
    brand: p.brand,
    name: p.name,
    subtitle,
    images: [1, 2, 3].map((n) => `/media/product/${p.id}${n === 1 ? '' : `-${n}`}.svg`),
    detail,
    source: p.source,
    sourceType: 1,
    orderType: p.orderType,
    marketPrice: p.marketPrice,
    createdAt: new Date(Date.UTC(2025, 0, 1) + (hashOf(p.name) % 300) * 86_400_000),
    nameTerms: name.words,
    keywordTerms: keywords.words.filter((w) => !name.words.includes(w)),
    charTerms: name.chars,
  };
}

async function chunked<T>(rows: T[], size: number, insert: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Each site sells most of the catalogue at its own prices. */
const SITE_PLAN: Record<number, { priceRate: number; skip: (id: number) => boolean }> = {
  719: { priceRate: 1, skip: (id) => id % 15 === 7 },
  10110: { priceRate: 0.9, skip: (id) => id % 16 === 3 },
  1000: { priceRate: 1.05, skip: () => false },
};
const planOf = (siteId: number) => SITE_PLAN[siteId] ?? { priceRate: 1, skip: () => false };
export const sitePriceOf = (siteId: number, price: number) =>
  Math.max(100, Math.round((price * planOf(siteId).priceRate) / 100) * 100);

/** Labels, groups and categories of one site; answers the category id of each kind. */
async function seedCategories(db: Db, siteId: number): Promise<Map<string, number>> {
  const labels = await db
    .insert(categoryLabel)
    .values(DEMO_LABELS.map((l, sort) => ({ siteId, lableName: l.lableName, sort })))
    .returning({ id: categoryLabel.id });
  const groupRows = DEMO_LABELS.flatMap((l, li) =>
    l.groups.map((g, sort) => ({ siteId, labelId: labels[li]!.id, levelName: g.levelName, sort })),
  );
  const groups = await db.insert(categoryGroup).values(groupRows).returning({ id: categoryGroup.id });
  const kinds = DEMO_LABELS.flatMap((l) => l.groups).flatMap((g, gi) =>
    g.kinds.map((k, sort) => ({
      code: k.code,
      row: { siteId, groupId: groups[gi]!.id, catName: k.catName, sort },
    })),
  );
  const cats = await db
    .insert(category)
    .values(kinds.map((k) => k.row))
    .returning({ id: category.id });
  return new Map(kinds.map((k, i) => [k.code, cats[i]!.id]));
}

/** Adverts beyond the menu: banners and activities, each kind of type. */
const EXTRA_ADVERTS = (site: DemoSite) => [
  {
    position: 'banner',
    type: 1,
    title: '家电以旧换新',
    adName: '家电以旧换新',
    image: `/media/demo/banner-${site.id}.svg`,
  },
  {
    position: 'banner',
    type: 2,
    title: site.siteName,
    adName: `${site.siteName}会员日`,
    url: `https://www.example.com/${site.id}/member-day`,
    image: `/media/demo/banner-${site.id}.svg`,
  },
  { position: 'activity', type: 1, title: '母婴好物节', adName: '母婴好物节', image: '' },
  {
    position: 'activity',
    type: 2,
    title: '积分抽奖',
    adName: '每日积分抽奖',
    url: `https://www.example.com/${site.id}/lottery`,
    image: '',
  },
];

async function seedSiteContent(db: Db, site: DemoSite, products: DemoProduct[]) {
  const siteId = site.id;
  await db.insert(advert).values(EXTRA_ADVERTS(site).map((ad, sort) => ({ siteId, sort, url: '', ...ad })));
  const specials = await db
    .select({ id: advert.id, adName: advert.adName })
    .from(advert)
    .where(and(eq(advert.siteId, siteId), eq(advert.type, 1)));
  const sold = products.filter((p) => !planOf(siteId).skip(p.id));
  const links = specials.flatMap((ad) => {
    const plan = SPECIAL_KINDS[ad.adName];
    let chosen: DemoProduct[];
    if (plan === 'cheap') chosen = [...sold].sort((a, b) => a.basePrice - b.basePrice).slice(0, 24);
    else if (plan === 'new') chosen = sold.filter((p) => hashOf(p.name) % 300 > 240).slice(0, 24);
    else chosen = sold.filter((p) => (plan ?? []).includes(p.kind)).filter((p) => hashOf(p.name) % 3 !== 0);
    return chosen.map((p, sort) => ({ advertId: ad.id, productId: p.id, sort }));
  });
  if (links.length > 0) await db.insert(advertProduct).values(links);

  await db.insert(tinyPage).values({
    siteId,
    title: `${site.siteName} · 精选专题`,
    isHome: true,
    blocks: [
      { kind: 'banner', title: site.advancedConfig.slogan, image: `/media/demo/banner-${siteId}.svg` },
      { kind: 'adverts', title: '热门活动', advertPosition: 'activity' },
      {
        kind: 'products',
        title: '人气好物',
        productIds: sold.filter((p) => p.id % 23 === 1).map((p) => p.id),
      },
    ],
  });

  const hours = site.configJson.serviceHours ?? '9:00-21:00';
  await db.insert(serviceChannel).values(
    [
      { type: 'hotline', name: '客服热线', value: site.hotline, hours },
      { type: 'spareHotline', name: '备用热线', value: site.spareHotline, hours },
      {
        type: 'online',
        name: '在线客服',
        value: `https://www.example.com/${siteId}/chat`,
        hours: '8:00-22:00',
      },
      { type: 'email', name: '客服邮箱', value: `service-${siteId}@example.com`, hours: '1个工作日内回复' },
    ]
      .filter((c) => c.value !== '')
      .map((c, sort) => ({ siteId, sort, ...c })),
  );

  const now = Date.now();
  const day = 86_400_000;
  await db.insert(mallNotice).values([
    {
      siteId,
      title: '系统升级公告',
      content: `<p>${esc(site.siteName)}将于本周日 02:00-04:00 进行系统升级，期间暂停下单，敬请谅解。</p>`,
      startAt: new Date(now - day),
      endAt: new Date(now + 30 * day),
    },
    {
      siteId,
      title: '春节物流公告（已结束）',
      content: '<p>春节期间物流暂停。</p>',
      startAt: new Date(now - 90 * day),
      endAt: new Date(now - 60 * day),
    },
  ]);
}

/**
 * The demo catalogue: one shared set of products, sold by each demo site at its own prices
 * under its own labels and categories. Bulk inserts keep it well under a second on PGlite,
 * since every test file seeds it.
 */
export async function seedCatalog(db: Db, sites: DemoSite[]): Promise<void> {
  const shops = await db
    .insert(shop)
    .values(
      DEMO_SHOPS.map((s, i) => ({
        shopName: s.shopName,
        intro: s.intro,
        logo: `/media/shop/${i + 1}.svg`,
      })),
    )
    .returning({ id: shop.id, shopName: shop.shopName });
  const shopIds = new Map(shops.map((s) => [s.shopName, s.id]));
  const products = demoProducts();
  await chunked(products, 200, (part) =>
    db.insert(product).values(part.map((p) => productRow(p, shopIds.get(p.shopName)!))),
  );
  let specId = 0;
  const specs = products.flatMap((p) =>
    p.specifications.map((s, sort) => ({
      id: ++specId,
      productId: p.id,
      specificationValue: s.value,
      stock: s.stock,
      sort,
      price: s.price,
    })),
  );
  await chunked(specs, 1000, (part) =>
    db.insert(productSpecification).values(part.map(({ price: _p, ...spec }) => spec)),
  );
  await db.execute(
    sql`select setval(pg_get_serial_sequence('product', 'id'), (select max(id) from product)), setval(pg_get_serial_sequence('product_specification', 'id'), (select max(id) from product_specification))`,
  );

  for (const site of sites) {
    const categoryOf = await seedCategories(db, site.id);
    const sold = products.filter((p) => !planOf(site.id).skip(p.id));
    const soldIds = new Set(sold.map((p) => p.id));
    const prices = specs
      .filter((s) => soldIds.has(s.productId))
      .map((s) => ({
        siteId: site.id,
        specificationId: s.id,
        productId: s.productId,
        price: sitePriceOf(site.id, s.price),
      }));
    await chunked(prices, 1000, (part) => db.insert(sitePrice).values(part));
    const lowest = new Map<number, number>();
    for (const p of prices) lowest.set(p.productId, Math.min(lowest.get(p.productId) ?? p.price, p.price));
    const rows = sold.map((p) => {
      const h = hashOf(`${site.id}/${p.name}`);
      return {
        siteId: site.id,
        productId: p.id,
        categoryId: categoryOf.get(p.kind)!,
        price: lowest.get(p.id)!,
        sales: h % 5000,
        limitNum: p.basePrice >= 100_000 ? 2 : p.orderType === 2 ? 5 : 0,
        listedAt: new Date(Date.UTC(2025, 0, 1) + (hashOf(p.name) % 300) * 86_400_000),
      };
    });
    await chunked(rows, 1000, (part) => db.insert(siteProduct).values(part));
    await seedSiteContent(db, site, products);
  }
}

const VARIANTS = [
  '2024款',
  '2025新款',
  '礼盒装',
  '家庭装',
  '旗舰版',
  '标准版',
  '升级版',
  '经典款',
  '尊享版',
  '青春版',
];

/**
 * A large catalogue for benchmarks (npm run seed -- --large): `count` products made from the
 * demo items with variant names, all sold on one site. Inserted in chunks.
 */
export async function seedLargeCatalog(
  db: Db,
  { count, siteId, log = () => {} }: { count: number; siteId: number; log?: (line: string) => void },
): Promise<void> {
  const base = demoProducts();
  const cats = await db
    .select({ id: category.id, catName: category.catName })
    .from(category)
    .where(eq(category.siteId, siteId));
  const catByName = new Map(cats.map((c) => [c.catName, c.id]));
  const shops = await db.select({ id: shop.id, shopName: shop.shopName }).from(shop);
  const shopIds = new Map(shops.map((s) => [s.shopName, s.id]));
  const [{ maxProduct, maxSpec }] = (await db
    .select({
      maxProduct: sql<number>`coalesce((select max(id) from product), 0)::int`,
      maxSpec: sql<number>`coalesce((select max(id) from product_specification), 0)::int`,
    })
    .from(sql`(select 1) as one`)) as [{ maxProduct: number; maxSpec: number }];
  let nextSpec = maxSpec;
  const CHUNK = 2000;
  for (let start = 0; start < count; start += CHUNK) {
    const batch: DemoProduct[] = [];
    for (let i = start; i < Math.min(count, start + CHUNK); i++) {
      const b = base[i % base.length]!;
      const variant = VARIANTS[Math.floor(i / base.length) % VARIANTS.length]!;
      const series = Math.floor(i / (base.length * VARIANTS.length)) + 1;
      batch.push({ ...b, id: maxProduct + i + 1, name: `${b.name} ${variant} ${series}号` });
    }
    await db.insert(product).values(batch.map((p) => productRow(p, shopIds.get(p.shopName)!)));
    const specs = batch.flatMap((p) =>
      p.specifications.map((s, sort) => ({
        id: ++nextSpec,
        productId: p.id,
        specificationValue: s.value,
        stock: s.stock,
        sort,
        price: s.price,
      })),
    );
    await db.insert(productSpecification).values(specs.map(({ price: _p, ...spec }) => spec));
    await db.insert(sitePrice).values(
      specs.map((s) => ({
        siteId,
        specificationId: s.id,
        productId: s.productId,
        price: sitePriceOf(siteId, s.price),
      })),
    );
    await db.insert(siteProduct).values(
      batch.map((p) => ({
        siteId,
        productId: p.id,
        categoryId: catByName.get(KIND_BY_CODE.get(p.kind)!.kind.catName)!,
        price: sitePriceOf(siteId, Math.min(...p.specifications.map((s) => s.price))),
        sales: hashOf(p.name) % 5000,
        listedAt: new Date(Date.UTC(2024, 0, 1) + (hashOf(p.name) % 600) * 86_400_000),
      })),
    );
    if ((start / CHUNK) % 10 === 0) log(`${start + batch.length} / ${count} products`);
  }
  await db.execute(
    sql`select setval(pg_get_serial_sequence('product', 'id'), (select max(id) from product)), setval(pg_get_serial_sequence('product_specification', 'id'), (select max(id) from product_specification))`,
  );
  await db.execute(sql`analyze`);
}
