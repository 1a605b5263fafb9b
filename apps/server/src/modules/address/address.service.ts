import { ADDRESS_MSG, type Address, isMobile, MAX_ADDRESSES, type SaveAddressBody } from '@sitemall/contract';
import { and, asc, count, desc, eq, type SQLWrapper, sql } from 'drizzle-orm';
import { transaction } from '../../context';
import { rowJson } from '../../lib/columns';
import { badRequest, failure } from '../../lib/errors';
import { prepared } from '../../lib/prepared';
import type { MemberCtx } from '../cart/cart.service';
import { memberAddress } from './address.tables';
import { resolveDistricts } from './districts';

type AddressRow = typeof memberAddress.$inferSelect;

const ph = sql.placeholder;

const owner = (ctx: MemberCtx) =>
  and(eq(memberAddress.siteId, ctx.site.row.id), eq(memberAddress.memberId, ctx.member.id));

/** The default first, then the latest changed: the book's order, and which one is the default. */
const defaultFirst = [desc(memberAddress.isDefault), desc(memberAddress.updatedAt), asc(memberAddress.id)];

export const presentAddress = ({ siteId, memberId, createdAt, updatedAt, ...row }: AddressRow): Address =>
  row;

/** The member's addresses, the default first. */
export async function listAddresses(ctx: MemberCtx): Promise<Address[]> {
  const rows = await ctx.db
    .select()
    .from(memberAddress)
    .where(owner(ctx))
    .orderBy(...defaultFirst);
  return rows.map(presentAddress);
}

/** One of the member's addresses; another member's or site's id is "not found". */
export async function getAddress(ctx: MemberCtx, id: number): Promise<Address> {
  const [row] = await ctx.db
    .select()
    .from(memberAddress)
    .where(and(owner(ctx), eq(memberAddress.id, id)));
  if (!row) throw failure(ADDRESS_MSG.notFound);
  return presentAddress(row);
}

export async function defaultAddress(ctx: MemberCtx): Promise<Address | null> {
  const [row] = await prepared(ctx.db, 'address_default', (name) =>
    ctx.db
      .select()
      .from(memberAddress)
      .where(and(eq(memberAddress.siteId, ph('siteId')), eq(memberAddress.memberId, ph('memberId'))))
      .orderBy(...defaultFirst)
      .limit(1)
      .prepare(name),
  ).execute({ siteId: ctx.site.row.id, memberId: ctx.member.id });
  return row ? presentAddress(row) : null;
}

/**
 * SQL: the address an order is delivered to, as an Address (JSON; null: none), beside other
 * values in one statement (order/checkout-facts.ts): the member's address `addressId` names, or with
 * no id (null) the default as defaultAddress picks it. Another member's or site's id is none.
 */
export const deliveryAddressSql = (
  siteId: SQLWrapper,
  memberId: SQLWrapper,
  addressId: SQLWrapper,
) => sql<Address | null>`(
  select ${rowJson(memberAddress, ['siteId', 'memberId', 'createdAt', 'updatedAt'])} from ${memberAddress}
  where ${memberAddress.siteId} = ${siteId} and ${memberAddress.memberId} = ${memberId}
    and (${addressId}::int is null or ${memberAddress.id} = ${addressId}::int)
  order by ${sql.join(defaultFirst, sql`, `)} limit 1)`;

/**
 * Creates or updates an address. Names come from the codes (never from the client); the
 * first address becomes the default. Making one default unsets the others in the same
 * transaction; the partial unique index keeps "at most one" true under concurrency.
 */
export async function saveAddress(ctx: MemberCtx, input: SaveAddressBody): Promise<Address> {
  const consignee = input.consignee.trim();
  const detail = input.detail.trim();
  const phone = input.phone.trim();
  if (!consignee || consignee.length > 20) throw badRequest(ADDRESS_MSG.badName);
  if (!detail || detail.length > 120) throw badRequest(ADDRESS_MSG.badDetail);
  if (!isMobile(phone)) throw badRequest(ADDRESS_MSG.badMobile);
  const districtCode = input.districtCode ?? '';
  const names = resolveDistricts(input.provinceCode, input.cityCode, districtCode);
  if (!names) throw badRequest(ADDRESS_MSG.badDistrict);
  const values = {
    consignee,
    phone,
    detail,
    provinceCode: input.provinceCode,
    cityCode: input.cityCode,
    districtCode,
    ...names,
  };
  return transaction(ctx, async ({ db: tx }) => {
    // Serialises one member's address writes (the count limit and the first-is-default rule).
    await tx.execute(sql`select pg_advisory_xact_lock(${ctx.site.row.id}, ${ctx.member.id})`);
    const [existing] = await tx.select({ n: count() }).from(memberAddress).where(owner(ctx));
    const total = existing?.n ?? 0;
    let isDefault = input.isDefault ?? false;
    if (input.id === undefined && total === 0) isDefault = true;
    if (isDefault) {
      await tx
        .update(memberAddress)
        .set({ isDefault: false })
        .where(and(owner(ctx), eq(memberAddress.isDefault, true)));
    }
    let row: AddressRow | undefined;
    if (input.id !== undefined) {
      [row] = await tx
        .update(memberAddress)
        .set({ ...values, ...(isDefault ? { isDefault: true } : {}), updatedAt: sql`now()` })
        .where(and(owner(ctx), eq(memberAddress.id, input.id)))
        .returning();
      if (!row) throw failure(ADDRESS_MSG.notFound);
    } else {
      if (total >= MAX_ADDRESSES) throw failure(ADDRESS_MSG.tooMany);
      [row] = await tx
        .insert(memberAddress)
        .values({ ...values, isDefault, siteId: ctx.site.row.id, memberId: ctx.member.id })
        .returning();
    }
    if (!row) throw failure(ADDRESS_MSG.notFound);
    return presentAddress(row);
  });
}

export async function deleteAddress(ctx: MemberCtx, id: number): Promise<void> {
  const removed = await ctx.db
    .delete(memberAddress)
    .where(and(owner(ctx), eq(memberAddress.id, id)))
    .returning({ id: memberAddress.id });
  if (removed.length === 0) throw failure(ADDRESS_MSG.notFound);
}

export async function setDefaultAddress(ctx: MemberCtx, id: number): Promise<Address> {
  return transaction(ctx, async ({ db: tx }) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ctx.site.row.id}, ${ctx.member.id})`);
    const [mine] = await tx
      .select({ id: memberAddress.id })
      .from(memberAddress)
      .where(and(owner(ctx), eq(memberAddress.id, id)));
    if (!mine) throw failure(ADDRESS_MSG.notFound);
    await tx
      .update(memberAddress)
      .set({ isDefault: false })
      .where(and(owner(ctx), eq(memberAddress.isDefault, true)));
    const [row] = await tx
      .update(memberAddress)
      .set({ isDefault: true, updatedAt: sql`now()` })
      .where(and(owner(ctx), eq(memberAddress.id, id)))
      .returning();
    if (!row) throw failure(ADDRESS_MSG.notFound);
    return presentAddress(row);
  });
}
