/**
 * Chinese-aware search terms. PostgreSQL's text search parsers do not segment Chinese, so the
 * server makes the terms itself, the same way on PGlite and PostgreSQL: words from
 * Intl.Segmenter('zh'), plus every bigram of each run of Han characters (so a query matches
 * whatever way the segmenter cut the name), plus single characters at the lowest weight.
 * Latin words and numbers are their own terms. The terms are stored as text arrays and turned
 * into a GIN-indexed tsvector by the database (catalog.tables.ts, product.search_vector).
 */

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const RUN = /(\p{Script=Han}+)|((?:(?!\p{Script=Han})\p{L})+)|(\p{N}+)/gu;
const MAX_TERM = 40;

export interface Run {
  kind: 'han' | 'latin' | 'digit';
  text: string;
}

export const normalise = (text: string) => text.normalize('NFKC').toLowerCase();

export function runsOf(text: string): Run[] {
  const out: Run[] = [];
  for (const m of normalise(text).matchAll(RUN)) {
    if (m[1]) out.push({ kind: 'han', text: m[1] });
    else if (m[2]) out.push({ kind: 'latin', text: m[2].slice(0, MAX_TERM) });
    else if (m[3]) out.push({ kind: 'digit', text: m[3].slice(0, MAX_TERM) });
  }
  return out;
}

export const bigrams = (han: string): string[] => {
  const chars = [...han];
  if (chars.length < 2) return chars;
  return chars.slice(0, -1).map((c, i) => c + chars[i + 1]);
};

/** Words of a Han run as the segmenter cuts them. */
const hanWords = (han: string) => [...segmenter.segment(han)].map((s) => s.segment);

/** Index terms of a text: words and bigrams (weighted by the caller), and single Han characters. */
export function indexTerms(text: string): { words: string[]; chars: string[] } {
  const words = new Set<string>();
  const chars = new Set<string>();
  for (const run of runsOf(text)) {
    if (run.kind !== 'han') {
      words.add(run.text);
      continue;
    }
    for (const c of run.text) chars.add(c);
    if (run.text.length <= 8) words.add(run.text);
    for (const w of hanWords(run.text)) if (w.length >= 2) words.add(w);
    for (const b of bigrams(run.text)) if (b.length === 2) words.add(b);
  }
  return { words: [...words], chars: [...chars] };
}

/**
 * Synonyms (both ways within a group): a query for one word also finds the others. Kept small
 * and in code: words shoppers type that a product name says differently.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['冰箱', '电冰箱'],
  ['笔记本', '笔记本电脑', '轻薄本'],
  ['苹果', 'apple'],
  ['西红柿', '番茄'],
  ['土豆', '马铃薯'],
  ['尿不湿', '纸尿裤', '拉拉裤'],
  ['耳机', '耳麦'],
  ['电视', '电视机'],
  ['充电宝', '移动电源'],
  ['平板', '平板电脑', 'ipad'],
  ['红薯', '地瓜'],
  ['洗发水', '洗发露'],
  ['沐浴露', '沐浴乳'],
  ['电饭煲', '电饭锅'],
  ['剃须刀', '刮胡刀'],
  ['保温杯', '水杯'],
  ['运动鞋', '跑鞋'],
  ['手机', '智能手机'],
];

const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS)
  for (const word of group)
    SYNONYMS.set(
      word,
      group.filter((w) => w !== word),
    );

const STOP_CHARS = new Set(['的', '和', '与', '及', '或', '之']);

const lexeme = (term: string) => `'${term.replaceAll("'", "''").replaceAll('\\', '\\\\')}'`;

/** One word of a query as a tsquery: a Han word must contain all its bigrams; Latin words match by prefix. */
function wordQuery(word: string): string {
  const runs = runsOf(word);
  const parts = runs.map((run) => {
    if (run.kind === 'latin') return `${lexeme(run.text)}:*`;
    if (run.kind === 'digit') return lexeme(run.text);
    const grams = bigrams(run.text);
    return grams.length === 1 ? lexeme(grams[0]!) : `(${grams.map(lexeme).join(' & ')})`;
  });
  return parts.length === 1 ? parts[0]! : `(${parts.join(' & ')})`;
}

export interface SearchQuery {
  /** Every word must match (each word or one of its synonyms). */
  all: string;
  /** Any word may match: the relaxed query when nothing matches them all. */
  any: string;
  /**
   * What orders the matches: every word's alternatives joined by OR. PostgreSQL ranks a query
   * joined by AND on how near its words stand, and the index gives every term one position (it
   * has no word order to keep); joined by OR, a match is worth the weights of the words found,
   * the name's above the keywords' above single characters.
   */
  rank: string;
  /** The words searched for, synonyms included: for highlighting and for the answer. */
  keywords: string[];
  /** The query as one normalised text, for the trigram fallback. */
  text: string;
}

/** Query words: Han runs cut by the segmenter, single characters joined to their neighbours. */
function queryWords(text: string): string[] {
  const words: string[] = [];
  for (const run of runsOf(text)) {
    if (run.kind !== 'han') {
      words.push(run.text);
      continue;
    }
    if (SYNONYMS.has(run.text)) {
      words.push(run.text);
      continue;
    }
    // Single characters are joined (美|的 is the brand 美的); a lone or trailing particle goes.
    let pending = '';
    const flush = () => {
      while ([...pending].length > 2 && STOP_CHARS.has(pending.slice(-1))) pending = pending.slice(0, -1);
      if (pending && !STOP_CHARS.has(pending)) words.push(pending);
      pending = '';
    };
    for (const w of hanWords(run.text)) {
      if (w.length === 1) pending += w;
      else {
        flush();
        words.push(w);
      }
    }
    flush();
  }
  return [...new Set(words)].slice(0, 12);
}

/** Builds the tsquery texts of a search; undefined when the text holds nothing searchable. */
/** A word too weak to match on its own: one Latin letter, or only digits. */
const WEAK_WORD = /^(?:[a-z]|\d+)$/i;

/** Markup typed or pasted into the box is not what the shopper looks for: tags are dropped. */
export const withoutMarkup = (input: string): string => input.replace(/<\/?[a-z!][^>]*>?/gi, ' ');

export function buildSearchQuery(input: string): SearchQuery | undefined {
  const words = queryWords(input);
  if (words.length === 0) return undefined;
  const keywords = new Set<string>();
  const groups = words.map((word) => {
    const alternatives = [word, ...(SYNONYMS.get(word) ?? [])];
    for (const a of alternatives) keywords.add(a);
    const expr = alternatives.map(wordQuery);
    return { word, expr: expr.length === 1 ? expr[0]! : `(${expr.join(' | ')})` };
  });
  // "Any word" may not rest on a lone letter or a bare number: `x` or `1` alone matches half the
  // catalogue, which is no answer to the query. Without a real word it is the same as "all".
  const strong = groups.filter((g) => !WEAK_WORD.test(g.word));
  const all = groups.map((g) => g.expr).join(' & ');
  return {
    all,
    any: strong.length > 0 ? strong.map((g) => g.expr).join(' | ') : all,
    rank: groups.map((g) => g.expr).join(' | '),
    keywords: [...keywords],
    text: runsOf(input)
      .map((r) => r.text)
      .join(' '),
  };
}

export interface Range {
  start: number;
  end: number;
}

/**
 * Where the keywords occur in a name, as merged [start, end) ranges. A Han keyword not found
 * whole is highlighted by its bigrams, as it was matched.
 */
export function highlightRanges(name: string, keywords: readonly string[]): Range[] {
  const lower = name.toLowerCase();
  if (lower.length !== name.length) return [];
  const ranges: Range[] = [];
  const mark = (needle: string) => {
    if (!needle) return false;
    let found = false;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      ranges.push({ start: at, end: at + needle.length });
      found = true;
    }
    return found;
  };
  for (const keyword of keywords) {
    for (const run of runsOf(keyword)) {
      if (mark(run.text) || run.kind !== 'han') continue;
      for (const gram of bigrams(run.text)) mark(gram);
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const merged: Range[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}
