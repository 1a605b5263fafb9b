/**
 * Building blocks of the input fuzz test: malformed values, the four body encodings the server
 * accepts (plugins/body.ts) and plausible payloads derived from the served OpenAPI.
 */

/** A deterministic PRNG (mulberry32): the same seed sends the same requests. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One malformed value: its raw JSON text and what a form field would carry. */
export interface Bad {
  name: string;
  json: string;
  form: string | string[];
}

// Longer than every maxLength of the contract (the longest is 20,000).
const HUGE = 'x'.repeat(25_000);
const text = (name: string, value: string): Bad => ({ name, json: JSON.stringify(value), form: value });
const raw = (name: string, json: string): Bad => ({ name, json, form: json });

export const BAD_VALUES: Bad[] = [
  text('Infinity', 'Infinity'),
  text('-Infinity', '-Infinity'),
  text('NaN', 'NaN'),
  raw('1e400', '1e400'),
  raw('20 digits', '12345678901234567890'),
  raw('int4 + 1', '2147483648'),
  raw('-1', '-1'),
  raw('1.5', '1.5'),
  raw('true', 'true'),
  raw('null', 'null'),
  text('empty', ''),
  text('hex', '0x1F'),
  text('NUL byte', 'a\u0000b'),
  text('lone surrogate', '\ud800'),
  text('quote', "1' or '1'='1"),
  text('huge string', HUGE),
  { name: 'array', json: '[1,2]', form: ['1', '2'] },
  { name: 'array of junk', json: '[["x"],{"a":null},1e400]', form: ['x', 'Infinity'] },
  { name: 'object', json: '{"a":1,"__proto__":{"x":1}}', form: '{"a":1}' },
  {
    name: 'nested',
    json: `${'['.repeat(200)}${']'.repeat(200)}`,
    form: `${'['.repeat(200)}${']'.repeat(200)}`,
  },
];

/** Whole bodies that are not an object of fields at all. */
export const BAD_BODIES = [
  '[]',
  '"x"',
  '{',
  'null',
  '1e400',
  '{"siteId":',
  '\u0000',
  'a=1&a=2&siteId=Infinity',
];

export type Encoding = 'json' | 'json-string' | 'urlencoded' | 'multipart';
export const ENCODINGS: Encoding[] = ['json', 'json-string', 'urlencoded', 'multipart'];

/** A field's value: a plausible one (any JSON value) or a malformed one. */
export type FieldValue = { ok: unknown } | { bad: Bad };

const BOUNDARY = '----sitemallfuzz';

const formValue = (v: FieldValue): string[] => {
  if ('bad' in v) return Array.isArray(v.bad.form) ? v.bad.form : [v.bad.form];
  if (Array.isArray(v.ok)) return v.ok.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x)));
  return [typeof v.ok === 'object' ? JSON.stringify(v.ok) : String(v.ok)];
};

/** The request body and its content type for the fields in one encoding. */
export function encode(fields: Record<string, FieldValue>, encoding: Encoding) {
  const entries = Object.entries(fields);
  if (encoding === 'json' || encoding === 'json-string') {
    const json = `{${entries
      .map(([k, v]) => `${JSON.stringify(k)}:${'bad' in v ? v.bad.json : JSON.stringify(v.ok)}`)
      .join(',')}}`;
    return {
      payload: encoding === 'json' ? json : JSON.stringify(json),
      contentType: encoding === 'json' ? 'application/json' : 'text/plain',
    };
  }
  if (encoding === 'urlencoded') {
    const params = new URLSearchParams();
    for (const [k, v] of entries) for (const s of formValue(v)) params.append(k, s);
    return { payload: params.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  const parts = entries.flatMap(([k, v]) =>
    formValue(v).map((s) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${s}\r\n`),
  );
  return {
    payload: `${parts.join('')}--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

/** The whole body as it arrives in an encoding, for BAD_BODIES. */
export function encodeRaw(body: string, encoding: Encoding) {
  if (encoding === 'json') return { payload: body, contentType: 'application/json' };
  if (encoding === 'json-string') return { payload: JSON.stringify(body), contentType: 'application/json' };
  if (encoding === 'urlencoded') return { payload: body, contentType: 'application/x-www-form-urlencoded' };
  return {
    payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\n${body}\r\n--${BOUNDARY}`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  default?: unknown;
  items?: JsonSchema;
  [key: string]: unknown;
}

/** Examples for the patterns the contract uses, so that other fields pass validation. */
const PATTERN_EXAMPLES: [RegExp, string][] = [
  [/\\d\{6\}/, '320000'],
  [/A-Za-z0-9\]\{8,40\}/, 'SO202600000000000001'],
  [/\^1\\d\{10\}\$/, '13800000000'],
  [/\\w\.:-\]\{8,64\}/, 'fuzz-request-1'],
];

/** A value the schema accepts (as far as a simple reading goes), for the fields not under test. */
export function plausible(schema: JsonSchema, name: string, siteId: number): unknown {
  if (name === 'siteId' || (name === 'id' && schema.description === '站点 id')) return siteId;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.anyOf?.[0]) return plausible(schema.anyOf[0], name, siteId);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return schema.items ? [plausible(schema.items, name, siteId)] : [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((k) => [k, plausible(schema.properties?.[k] ?? {}, k, siteId)]),
      );
    case 'string': {
      const pattern = schema.pattern;
      const example = pattern && PATTERN_EXAMPLES.find(([re]) => re.test(pattern))?.[1];
      return example ?? 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
    }
    default:
      return 'fuzz';
  }
}
