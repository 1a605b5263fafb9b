import { catalogApi, type SearchResult, shopUrl } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { category, product, shop, siteProduct } from './catalog.tables';
import { buildSearchQuery, highlightRanges, indexTerms } from './search-terms';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const search = (payload: Record<string, unknown>) =>
  t.post<SearchResult>(shopUrl(catalogApi.search), { siteId: 1000, ...payload });

/**
 * The relevance set: what a shopper types, and a product each query must bring into the top 10
 * (brands, category words, partial words, mixed Chinese and Latin, synonyms).
 */
const RELEVANCE: [query: string, expected: string][] = [
  ['华为', '华为 Mate 60 Pro'],
  ['华为手机', '华为 Mate 60 Pro'],
  ['小米', '小米 14 Ultra'],
  ['Apple', 'Apple iPhone 15 128GB'],
  ['iPhone 15', 'Apple iPhone 15 128GB'],
  ['iphone15', 'Apple iPhone 15 Pro'],
  ['苹果手机', 'Apple iPhone 15 128GB'],
  ['手机', 'Apple iPhone 15'],
  ['耳机', 'AirPods Pro'],
  ['蓝牙耳机', '华为 FreeBuds 5i'],
  ['降噪耳机', '索尼 WH-1000XM5'],
  ['airp', 'Apple AirPods Pro'],
  ['mate', '华为 Mate 60 Pro'],
  ['美的', '美的 508升 对开门冰箱'],
  ['海尔冰箱', '海尔 510升 十字对开门冰箱'],
  ['电冰箱', '美的 215升 三门小冰箱'],
  ['空调', '格力 云佳 1.5匹'],
  ['洗衣机', '小天鹅 10公斤 水魔方滚筒洗衣机'],
  ['电视机', '小米 电视 S Pro 75 英寸'],
  ['笔记本', 'MacBook Air'],
  ['平板', 'iPad Air'],
  ['电饭锅', '美的 4L 智能电饭煲'],
  ['三只松鼠', '三只松鼠 每日坚果'],
  ['坚果', '洽洽 每日坚果'],
  ['零食', '三只松鼠 零食大礼包'],
  ['茅台', '贵州茅台 飞天 53度'],
  ['白酒', '五粮液 第八代 普五'],
  ['红酒', '张裕 解百纳 干红葡萄酒'],
  ['龙井', '西湖牌 明前 龙井茶'],
  ['牛奶', '特仑苏 纯牛奶'],
  ['番茄', '山东 寿光 西红柿'],
  ['马铃薯', '内蒙古 土豆'],
  ['尿不湿', '花王 妙而舒 纸尿裤'],
  ['奶粉', '飞鹤 星飞帆'],
  ['牙膏', '云南白药 牙膏'],
  ['洗发露', '海飞丝 去屑 洗发水'],
  ['面膜', '自然堂 冰肌 水光 面膜'],
  ['三体', '三体 全三册'],
  ['车厘子', '智利 车厘子'],
  ['充电宝', 'Anker 安克 20000mAh 充电宝'],
  ['戴森吹风机', '戴森 Supersonic 吹风机'],
  ['保温杯', '膳魔师 不锈钢 保温杯'],
  ['跑鞋', '李宁 飞电 4'],
  ['话费', '中国移动 话费 充值'],
];

describe('search relevance set', () => {
  it('has at least 30 queries', () => expect(RELEVANCE.length).toBeGreaterThanOrEqual(30));
  it.each(RELEVANCE)('"%s" finds %s in the top 10', async (query, expected) => {
    const { body } = await search({ itemName: query });
    expect(body.code).toBe(200);
    const names = body.data.list.map((p) => p.name);
    expect(
      names.some((n) => n.includes(expected)),
      `${query} → ${names.join(' | ')}`,
    ).toBe(true);
  });

  it('puts the product named by the query first', async () => {
    expect((await search({ itemName: 'iPhone 15' })).body.data.list[0]?.name).toContain('iPhone 15');
    expect((await search({ itemName: '茅台' })).body.data.list[0]?.brand).toBe('茅台');
  });

  it('does not mix in other categories for a brand plus category word', async () => {
    const { list } = (await search({ itemName: '华为手机' })).body.data;
    expect(list.length).toBeGreaterThan(0);
    for (const p of list) expect(p.brand).toBe('华为');
    expect(list.some((p) => p.name.includes('FreeBuds'))).toBe(false);
  });
});

describe('search behaviour', () => {
  it('ranks a product whose name holds the words above one that has them only as keywords', async () => {
    const [anyShop] = await t.db.select({ id: shop.id }).from(shop).limit(1);
    const [anyCategory] = await t.db
      .select({ id: category.id })
      .from(category)
      .where(eq(category.siteId, 1000))
      .limit(1);
    const listed = async (name: string, keywords: string, sales: number) => {
      const terms = indexTerms(name);
      const [row] = await t.db
        .insert(product)
        .values({
          shopId: anyShop!.id,
          kind: 'test',
          name,
          source: 1,
          nameTerms: terms.words,
          keywordTerms: indexTerms(keywords).words,
          charTerms: terms.chars,
        })
        .returning({ id: product.id });
      await t.db
        .insert(siteProduct)
        .values({ siteId: 1000, productId: row!.id, categoryId: anyCategory!.id, price: 100, sales });
      return row!.id;
    };
    const named = await listed('琉璃 灯笼 甲款', '', 1);
    const taggedOnly = await listed('乙款 摆件', '琉璃 灯笼', 1000);
    // Words in another order than the name's: the bonus for the typed phrase goes to neither.
    const { list } = (await search({ itemName: '灯笼 琉璃' })).body.data;
    expect(list.map((p) => p.id)).toEqual([named, taggedOnly]);
  });

  it('highlights the matched words in the name', async () => {
    const hit = (await search({ itemName: '三只松鼠 坚果' })).body.data.list[0]!;
    const marked = hit.highlights.map((r) => hit.name.slice(r.start, r.end));
    expect(marked.join('')).toContain('三只松鼠');
    expect(hit.highlights.every((r) => r.start < r.end && r.end <= hit.name.length)).toBe(true);
  });

  it('filters by category and by price, and sorts by price, sales and newest', async () => {
    const phones = (await search({ itemName: '华为' })).body.data;
    const cats = await t.post<{ cateProductList: { id: number; catName: string }[] }>(
      shopUrl(catalogApi.productCateList),
      { siteId: 1000, lableId: (await labelIds(1000))[0] },
    );
    const phoneCat = cats.body.data.cateProductList.find((c) => c.catName === '手机')!;
    const onlyPhones = (await search({ itemName: '华为', cateId: phoneCat.id })).body.data;
    expect(onlyPhones.total).toBeLessThan(phones.total);
    expect(onlyPhones.list.every((p) => p.name.startsWith('华为'))).toBe(true);

    const cheap = (await search({ itemName: '手机', maxPrice: 300_000 })).body.data;
    expect(cheap.list.length).toBeGreaterThan(0);
    expect(cheap.list.every((p) => p.price <= 300_000)).toBe(true);
    const range = (await search({ itemName: '手机', minPrice: 500_000, maxPrice: 700_000 })).body.data;
    expect(range.list.every((p) => p.price >= 500_000 && p.price <= 700_000)).toBe(true);

    const asc = (await search({ itemName: '耳机', sortField: 'price', sortType: 'asc' })).body.data.list;
    expect(asc.map((p) => p.price)).toEqual([...asc.map((p) => p.price)].sort((a, b) => a - b));
    const bySales = (await search({ itemName: '耳机', sortField: 'sales', sortType: 'desc' })).body.data.list;
    expect(bySales.map((p) => p.sales)).toEqual([...bySales.map((p) => p.sales)].sort((a, b) => b - a));
    expect((await search({ itemName: '耳机', sortField: 'new' })).body.data.list.length).toBeGreaterThan(0);
  });

  it('pages by 10 and refuses pages beyond 100', async () => {
    const first = (await search({ itemName: '手机' })).body.data;
    expect(first.pageSize).toBe(10);
    expect(first.list).toHaveLength(10);
    const second = (await search({ itemName: '手机', pageNum: 2 })).body.data;
    expect(second.total).toBe(first.total);
    expect(second.list.map((p) => p.id).some((id) => first.list.some((p) => p.id === id))).toBe(false);
    const beyond = (await search({ itemName: '手机', pageNum: 99 })).body;
    expect(beyond.data).toMatchObject({ list: [], total: first.total });
    expect((await search({ itemName: '手机', pageNum: 101 })).body).toMatchObject({
      code: 400,
      success: false,
    });
    for (const pageNum of [0, -1, 1e12, 'x'])
      expect((await search({ itemName: '手机', pageNum })).body).toMatchObject({ code: 400, success: false });
  });

  it('answers a clear empty result with popular words and nearest products', async () => {
    const none = (await search({ itemName: 'zzqxv' })).body;
    expect(none).toMatchObject({ code: 200, success: true });
    expect(none.data.list).toEqual([]);
    expect(none.data.total).toBe(0);
    expect(none.data.suggestions.words.length).toBeGreaterThan(0);
    expect(none.data.suggestions.products.length).toBeGreaterThan(0);
    const blank = (await search({ itemName: '   ' })).body;
    expect(blank.data.list).toEqual([]);
    expect(blank.data.suggestions.products.length).toBeGreaterThan(0);
  });

  it('finds misspelt Latin words by trigram similarity', async () => {
    const { list } = (await search({ itemName: 'macbok' })).body.data;
    expect(list.some((p) => p.name.includes('MacBook'))).toBe(true);
  });

  it('treats script and SQL text as words, and refuses absurdly long text', async () => {
    for (const itemName of ['<script>alert(1)</script>', "'; drop table product; --", '%_\\', '&&||!!:*']) {
      const { status, body } = await search({ itemName });
      expect(status).toBe(200);
      expect(body.code).toBe(200);
      expect(JSON.stringify(body)).not.toContain('<script>');
    }
    // Markup and lone letters or numbers match nothing: no unrelated products are offered as results.
    for (const itemName of ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>']) {
      const { body } = await search({ itemName });
      expect(body.data.total, itemName).toBe(0);
      expect(body.data.list).toEqual([]);
    }
    const long = await search({ itemName: '手机'.repeat(200) });
    expect(long.status).toBe(200);
    expect(long.body).toMatchObject({ code: 400, success: false });
  });
});

describe('search terms', () => {
  it('indexes Chinese words, bigrams and characters, and Latin words', () => {
    const { words, chars } = indexTerms('Apple iPhone 15 智能手机');
    expect(words).toEqual(
      expect.arrayContaining(['apple', 'iphone', '15', '智能手机', '手机', '智能', '能手']),
    );
    expect(chars).toEqual(['智', '能', '手', '机']);
  });

  it('joins single characters into words and drops particles', () => {
    expect(buildSearchQuery('美的的空调')?.all).toBe("'美的' & '空调'");
    expect(buildSearchQuery('华为的手机')?.keywords).toEqual(['华为', '手机', '智能手机']);
    expect(buildSearchQuery('  !!  ')).toBeUndefined();
  });

  it('merges overlapping highlight ranges', () => {
    expect(highlightRanges('三只松鼠 每日坚果', ['三只', '松鼠', '坚果'])).toEqual([
      { start: 0, end: 4 },
      { start: 7, end: 9 },
    ]);
  });
});

async function labelIds(siteId: number) {
  const { body } = await t.post<{ mallCateLables: { id: number }[] }>(shopUrl(catalogApi.lableList), {
    siteId,
  });
  return body.data.mallCateLables.map((l) => l.id);
}
