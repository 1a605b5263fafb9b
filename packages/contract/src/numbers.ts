import { type IntegerOptions, Type } from '@sinclair/typebox';

/**
 * The one rule for every whole number a client sends (ids, quantities, pages, amounts).
 *
 * Form fields arrive as strings and the server's AJV coerces them (`coerceTypes`). AJV turns
 * "Infinity", "-Infinity" and "1e400" into ±Infinity and then skips minimum/maximum for
 * non-finite numbers, so a bounded `Type.Integer` alone lets them through to PostgreSQL. So:
 * - every request integer is an `Int` (or `Id`, `Amount`, `EpochMs`): an explicit range that
 *   fits the column it ends up in, and `FINITE_KEYWORD`, checked after coercion;
 * - text meant as one of them is digits only (`malformedInteger`, checked by the server before
 *   AJV coerces "0x1F", "1e3" or true into numbers);
 * - what services parse themselves (lines as JSON text, "1,2,3") follows the same rule
 *   (`readIntegers`, `idOf`, `isRowId`).
 */

/** Largest value of a PostgreSQL `integer` (int4) column: every id and amount a client names. */
export const INT4_MAX = 2_147_483_647;
/** Largest amount in fen a client may name (below INT4_MAX so sums of two still fit). */
export const MAX_AMOUNT = 2_000_000_000;

/** Schema keyword that refuses ±Infinity and NaN after AJV's type coercion. */
export const FINITE_KEYWORD = 'x-finite';

/**
 * AJV keyword definition for FINITE_KEYWORD (plain object: the contract does not depend on
 * AJV). Untyped, so AJV runs it for every value, after coercion; the built-in number keywords
 * are skipped for non-finite numbers, this one is not.
 */
export const finiteKeyword = {
  keyword: FINITE_KEYWORD,
  schemaType: 'boolean',
  errors: false,
  validate: (required: boolean, data: unknown): boolean =>
    !required || typeof data !== 'number' || Number.isFinite(data),
} as const;

/** A whole number in [minimum, maximum]; both bounds are required so no field is unbounded. */
export const Int = (minimum: number, maximum: number, options: IntegerOptions = {}) => {
  if (!Number.isSafeInteger(minimum) || !Number.isSafeInteger(maximum) || minimum > maximum) {
    throw new Error(`Int: bad range [${minimum}, ${maximum}]`);
  }
  return Type.Integer({ ...options, minimum, maximum, [FINITE_KEYWORD]: true });
};

/** The id of a row (serial, int4) as a client names it. */
export const Id = (options: IntegerOptions = {}) => Int(1, INT4_MAX, options);

/** An amount in fen a client names (e.g. the points part of a payment). */
export const Amount = (options: IntegerOptions = {}) =>
  Int(0, MAX_AMOUNT, { description: 'fen', ...options });

/** Milliseconds since the epoch (signed requests). */
export const EpochMs = (options: IntegerOptions = {}) =>
  Int(0, Number.MAX_SAFE_INTEGER, { description: 'ms since epoch', ...options });

/** Whether a value parsed by hand (a path segment, "1,2,3") is a row id a column can hold. */
export const isRowId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= INT4_MAX;

/** How a whole number is written where a client sends text (form data): a minus and digits only. */
export const INTEGER_TEXT = /^-?\d+$/;

interface SchemaShape {
  type?: unknown;
  properties?: Record<string, SchemaShape>;
  items?: SchemaShape;
  anyOf?: SchemaShape[];
  [FINITE_KEYWORD]?: unknown;
}

const kindOf = (value: unknown) =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : (typeof value as string);
const acceptsKind = (schema: SchemaShape, kind: string) =>
  schema.type === kind ||
  (kind === 'number' && schema.type === 'integer') ||
  (kind === 'string' && schema.type === 'integer') ||
  (kind === 'boolean' && schema.type === 'integer');

/**
 * The path of the first value a schema wants as one of these integers but that is written
 * otherwise ("0x1F", "1e3", " 7", "1.0", true, null): AJV's coercion would read a number into it.
 * Unions are followed along the branch of the value's kind; text meant for a string branch
 * (ids as "1,2,3") is that branch's business.
 */
export function malformedInteger(schema: unknown, value: unknown, path = ''): string | undefined {
  if (!schema || typeof schema !== 'object' || value === undefined) return undefined;
  const s = schema as SchemaShape;
  if (s[FINITE_KEYWORD] === true) {
    // AJV would coerce null to 0 (a status, a quantity): a null is no number.
    if (typeof value === 'boolean' || value === null) return path;
    return typeof value === 'string' && !INTEGER_TEXT.test(value) ? path : undefined;
  }
  if (s.anyOf) {
    const kind = kindOf(value);
    if (s.anyOf.some((b) => b.type === kind)) {
      const branch = s.anyOf.find((b) => b.type === kind);
      return kind === 'string' ? undefined : malformedInteger(branch, value, path);
    }
    return malformedInteger(
      s.anyOf.find((b) => acceptsKind(b, kind)),
      value,
      path,
    );
  }
  if (s.type === 'object' && s.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, sub] of Object.entries(s.properties)) {
      const found = malformedInteger(
        sub,
        (value as Record<string, unknown>)[key],
        path ? `${path}.${key}` : key,
      );
      if (found !== undefined) return found;
    }
  }
  if (s.type === 'array' && s.items && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = malformedInteger(s.items, item, `${path}.${i}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The same rule for values a service parses itself (lines sent as a JSON text): integers written
 * as digits become numbers, everything else stays as it was, so a schema check then refuses
 * "1e400", "0x1F", 2.7 or true instead of truncating them (TypeBox's Value.Convert would).
 */
export function readIntegers(schema: unknown, value: unknown): unknown {
  if (!schema || typeof schema !== 'object') return value;
  const s = schema as SchemaShape;
  if (s[FINITE_KEYWORD] === true)
    return typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
  if (s.type === 'object' && s.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, sub] of Object.entries(s.properties))
      if (key in out) out[key] = readIntegers(sub, out[key]);
    return out;
  }
  if (s.type === 'array' && s.items && Array.isArray(value))
    return value.map((item) => readIntegers(s.items, item));
  return value;
}

/** An id inside a list a client writes ("1, 2, 3" or a JSON array): digits or a whole number. */
export function idOf(value: unknown): number | undefined {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const n = text === undefined ? value : INTEGER_TEXT.test(text) ? Number(text) : undefined;
  return isRowId(n) ? n : undefined;
}

/**
 * The one reading of a list a client sends: an array as it came, or text: JSON ("[1,2]",
 * `[{"productId":1}]`) or, where `commas` allows, "1,2,3" as form posts write it. Text that is
 * neither answers undefined; any other value comes back as it was, for the caller's schema.
 */
export function listFrom(value: unknown, commas = true): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (commas && !text.startsWith('[')) return text === '' ? [] : text.split(',');
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
