import { type TSchema, Type } from '@sinclair/typebox';
import { INT4_MAX, Int } from './numbers.ts';

/** Deep OFFSET paging is Postgres-bound (architecture.md, performance facts): lists stop here. */
export const MAX_PAGE = 100;
export const pageLimitMessage = `最多只能查看前 ${MAX_PAGE} 页，请缩小筛选范围`;

export const PageNum = Int(1, INT4_MAX, { default: 1, description: '页码，从 1 开始' });

/** A page of a list: page size 10 (spec section 9). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer(),
    pageNum: Type.Integer(),
    pageSize: Type.Integer(),
  });
