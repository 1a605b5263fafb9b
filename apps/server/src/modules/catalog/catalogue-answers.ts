import { ttlCache } from '../../lib/ttl-cache';
import type { Site } from '../site/site.service';
import type { SiteCatalog } from './catalog.service';

/**
 * Answers of the public catalogue reads shoppers repeat most (a search, a page of a category,
 * a product page's names and pictures) are kept in memory a short while. Each is kept with the
 * site's catalogue entry it was read under (CatalogCache): the NOTIFY that drops a site's
 * catalogue in every process, which every operator change of the site's listings announces,
 * turns them all into misses at once. The TTL bounds how long what announces nothing stays
 * unseen: sales and stock moved by orders. A product that sold out meanwhile still refuses the
 * purchase (the order checks its stock); its card may say it has stock for that long.
 * One bound for all sites, the least recently asked leaving first: the memory stays the same
 * however many sites a crawler walks through.
 */
const ANSWER_TTL_MS = 10_000;
const ANSWERS = 20_000;

interface Kept {
  catalog: SiteCatalog;
  site: Site;
  answer: Promise<unknown>;
}
const answers = ttlCache<string, Kept>({ ttlMs: ANSWER_TTL_MS, max: ANSWERS });

/**
 * The answer to `key` (what the read is and everything it was asked with) on the site: from
 * memory, or from `read`, kept for the next shopper, `ttlMs` at most where it shows more of what
 * orders move than a card does. A read that fails is not kept. The cards carry the site's own
 * settings, so a site changed since is a miss too.
 */
export function catalogueAnswer<T>(
  catalog: SiteCatalog,
  site: Site,
  key: string,
  read: () => Promise<T>,
  ttlMs = ANSWER_TTL_MS,
): Promise<T> {
  const id = `${site.row.id}:${key}`;
  const kept = answers.get(id);
  if (kept?.catalog === catalog && kept.site === site) return kept.answer as Promise<T>;
  const entry: Kept = { catalog, site, answer: read() };
  answers.set(id, entry, { ttl: ttlMs });
  // Only this read's own entry leaves: a newer read may already have replaced it.
  entry.answer.catch(() => answers.get(id) === entry && answers.delete(id));
  return entry.answer as Promise<T>;
}
