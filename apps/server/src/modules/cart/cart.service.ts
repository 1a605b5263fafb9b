import { Value } from '@sinclair/typebox/value';
import {
  CART_MSG,
  type Cart,
  type CartItem,
  CartLineInput,
  idOf,
  listFrom,
  MAX_CART_LINES,
  MAX_CART_NUM,
  readIntegers,
} from '@sitemall/contract';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { type Member, type RequestContext, transaction } from '../../context';
import type { Db } from '../../db/client';
import { badRequest, failure } from '../../lib/errors';
import { siteOf, sourceOf } from '../catalog/catalog.service';
import { specificationOptions, specificationsOnSite } from '../catalog/products';
import { purchaseProblem } from '../catalog/purchasable';
import type { Site } from '../site/site.service';
import { cartLine } from './cart.tables';

/** A request with a logged-in member on a known site (routes declare auth and site required). */
export interface MemberCtx extends RequestContext {
  site: Site;
  member: Member;
}

export function memberCtx(ctx: RequestContext): MemberCtx {
  const site = siteOf(ctx);
  if (!ctx.member) throw failure('请先登录');
  return { ...ctx, site, member: ctx.member };
}

const owner = (ctx: MemberCtx) =>
  and(eq(cartLine.siteId, ctx.site.row.id), eq(cartLine.memberId, ctx.member.id));

/**
 * Cart lines arrive as one object, a list, or either as a JSON text (form data). Each is
 * checked here so a bad quantity gets its own clear message.
 */
export interface CartLineValue {
  productId: number;
  specificationId: number;
  num: number;
}

export function parseCartLines(value: unknown): CartLineValue[] {
  let list = listFrom(value, false);
  if (list && typeof list === 'object' && !Array.isArray(list)) list = [list];
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CART_LINES)
    throw badRequest(CART_MSG.badLines);
  return list.map((item) => {
    if (!item || typeof item !== 'object') throw badRequest(CART_MSG.badLines);
    const num = (item as { num?: unknown }).num;
    if (num !== undefined && num !== null && num !== '') {
      const n = Number(num);
      if (!Number.isInteger(n) || n < 1 || n > MAX_CART_NUM) throw badRequest(CART_MSG.badNum);
    }
    const line = readIntegers(CartLineInput, item);
    if (!Value.Check(CartLineInput, line)) throw badRequest(CART_MSG.badLines);
    return { productId: line.productId, specificationId: line.specificationId, num: line.num ?? 1 };
  });
}

/** Ids arrive as a list, "1,2,3" or its JSON text. */
export function parseIdList(value: number[] | string | undefined): number[] {
  if (value === undefined) return [];
  const list = listFrom(value);
  if (!Array.isArray(list)) throw badRequest('参数 ids 格式不正确');
  // The contract's rule for ids in lists: digits or whole numbers in the int4 range.
  const ids = list.map(idOf);
  if (ids.length === 0 || ids.length > MAX_CART_LINES || ids.some((id) => id === undefined))
    throw badRequest('参数 ids 格式不正确');
  return [...new Set(ids as number[])];
}

/**
 * Adds lines to the member's cart; a specification already there gets the quantity added
 * (spec section 5), capped at the largest quantity a line may hold. Only specifications the
 * site sells can be added, and only as many as its stock and purchase limit allow: a line that
 * would end above either is refused with the reason (section 8: the page shows the msg), and
 * nothing is added. Answers the cart as the transaction sees it: adding is not idempotent, so a
 * read failing after the commit must not make the member add again.
 */
export async function addToCart(ctx: MemberCtx, lines: CartLineValue[]): Promise<Cart> {
  const siteId = ctx.site.row.id;
  const specs = await specificationsOnSite(
    ctx,
    siteId,
    lines.map((l) => l.specificationId),
  );
  const sums = new Map<number, CartLineValue>();
  for (const line of lines) {
    const spec = specs.get(line.specificationId);
    if (!spec || spec.productId !== line.productId || !spec.isOnSale) throw failure(CART_MSG.notOnSale);
    const earlier = sums.get(line.specificationId);
    sums.set(line.specificationId, { ...line, num: Math.min(MAX_CART_NUM, (earlier?.num ?? 0) + line.num) });
  }
  return transaction(ctx, async ({ db: tx }) => {
    const added = await tx
      .insert(cartLine)
      .values(
        [...sums.values()].map((l) => ({
          siteId,
          memberId: ctx.member.id,
          productId: l.productId,
          specificationId: l.specificationId,
          num: l.num,
        })),
      )
      .onConflictDoUpdate({
        target: [cartLine.siteId, cartLine.memberId, cartLine.specificationId],
        set: {
          num: sql`least(${cartLine.num} + excluded.num, ${MAX_CART_NUM})`,
          isSelected: true,
          updatedAt: sql`now()`,
        },
      })
      .returning({
        productId: cartLine.productId,
        specificationId: cartLine.specificationId,
        num: cartLine.num,
      });
    for (const line of added) {
      const problem = purchaseProblem(specs.get(line.specificationId), line);
      if (problem) throw failure(problem);
    }
    const [row] = await tx.select({ n: count() }).from(cartLine).where(owner(ctx));
    if ((row?.n ?? 0) > MAX_CART_LINES) throw failure(CART_MSG.tooManyLines);
    return getCart({ ...ctx, db: tx });
  });
}

/** Sets the quantity of one of the member's lines. */
/** A visitor's cart kept in the browser joins the member's at login, where the site keeps one. */
export async function mergeGuestCart(ctx: MemberCtx, lines: CartLineValue[]): Promise<Cart> {
  if (ctx.site.row.configJson.guestCart !== 'Y') throw failure('本站不支持游客购物车');
  return addToCart(ctx, lines);
}

export async function updateCartNum(ctx: MemberCtx, id: number, num: number): Promise<void> {
  const updated = await ctx.db
    .update(cartLine)
    .set({ num, updatedAt: sql`now()` })
    .where(and(owner(ctx), eq(cartLine.id, id)))
    .returning({ id: cartLine.id });
  if (updated.length === 0) throw failure(CART_MSG.lineNotFound);
}

/** Removes the member's lines; an id that is not the member's is refused and nothing is removed. */
export async function deleteCartLines(ctx: MemberCtx, ids: number[]): Promise<void> {
  await transaction(ctx, async ({ db: tx }) => {
    const removed = await tx
      .delete(cartLine)
      .where(and(owner(ctx), inArray(cartLine.id, ids)))
      .returning({ id: cartLine.id });
    if (removed.length !== ids.length) throw failure(CART_MSG.lineNotFound);
  });
}

/** Selects or unselects the member's lines (all of them when ids is empty). */
export async function selectCartLines(ctx: MemberCtx, ids: number[], isSelected: boolean): Promise<void> {
  await transaction(ctx, async ({ db: tx }) => {
    const changed = await tx
      .update(cartLine)
      .set({ isSelected })
      .where(and(owner(ctx), ids.length > 0 ? inArray(cartLine.id, ids) : undefined))
      .returning({ id: cartLine.id });
    if (ids.length > 0 && changed.length !== ids.length) throw failure(CART_MSG.lineNotFound);
  });
}

export async function cartCount(ctx: MemberCtx): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`coalesce(sum(${cartLine.num}), 0)::int` })
    .from(cartLine)
    .where(owner(ctx));
  return Number(row?.n ?? 0);
}

/** The member's cart, each line re-checked against the current price, stock, sale and limit. */
export async function getCart(ctx: MemberCtx): Promise<Cart> {
  const rows = await ctx.db
    .select()
    .from(cartLine)
    .where(owner(ctx))
    .orderBy(asc(cartLine.createdAt), asc(cartLine.id));
  const [specs, options] = await Promise.all([
    specificationsOnSite(
      ctx,
      ctx.site.row.id,
      rows.map((r) => r.specificationId),
    ),
    specificationOptions(
      ctx.db,
      rows.map((r) => r.productId),
    ),
  ]);
  const list: CartItem[] = rows.map((row) => {
    const spec = specs.get(row.specificationId);
    const msg = purchaseProblem(spec, row);
    return {
      id: row.id,
      itemId: row.productId,
      num: row.num,
      specificationId: row.specificationId,
      specificationValue: spec?.specificationValue ?? '',
      productSpecifications: options.get(row.productId) ?? [],
      name: spec?.name ?? '商品已下架',
      image: spec?.image ?? '',
      orderType: spec?.orderType ?? 1,
      source: sourceOf(ctx.site, spec?.source ?? 0, spec?.sourceType ?? 1),
      price: spec?.price ?? 0,
      stock: spec?.isOnSale ? spec.stock : 0,
      limitNum: spec?.limitNum ?? 0,
      isOnSale: spec?.isOnSale ?? false,
      isSelected: row.isSelected,
      isValid: msg === '',
      msg,
    };
  });
  const selected = list.filter((l) => l.isSelected && l.isValid);
  return {
    list,
    count: list.reduce((sum, l) => sum + l.num, 0),
    selectedCount: selected.reduce((sum, l) => sum + l.num, 0),
    selectedAmount: selected.reduce((sum, l) => sum + l.price * l.num, 0),
  };
}

/** The member's lines of the given ids (for an order); any id not the member's is an error. */
export async function cartLinesOf(ctx: MemberCtx, ids: number[]) {
  const rows = await ctx.db
    .select({
      id: cartLine.id,
      productId: cartLine.productId,
      specificationId: cartLine.specificationId,
      num: cartLine.num,
    })
    .from(cartLine)
    .where(and(owner(ctx), inArray(cartLine.id, ids)));
  if (rows.length !== ids.length) throw failure(CART_MSG.lineNotFound);
  return rows;
}

/** Removes the lines an order was made from, inside the order's transaction. */
export async function removeOrderedLines(tx: Db, ctx: MemberCtx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(cartLine).where(and(owner(ctx), inArray(cartLine.id, ids)));
}
