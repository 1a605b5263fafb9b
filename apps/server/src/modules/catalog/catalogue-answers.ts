import type { LRUCache } from 'lru-cache';
import { ttlCache } from '../../lib/ttl-cache';
import type { Site } from '../site/site.service';
import type { SiteCatalog } from './catalog.service';

/**
 * Answers of the public catalogue reads shoppers repeat most (a search, a page of a category)
 * are kept in memory a short while. They hang on the site's catalogue entry (CatalogCache), so
 * the NOTIFY that drops a site's catalogue in every process, which every operator change of the
 * site's listings announces, drops its answers with it. The TTL bounds how long what announces
 * nothing stays unseen: sales and stock moved by orders. A product that sold out meanwhile still
 * refuses the purchase (the order checks its stock); its card may say it has stock for that
 * long. The least recently asked leave first, so what stays is what is asked often.
 */
const ANSWER_TTL_MS = 10_000;
const ANSWERS_PER_SITE = 2_000;

type Answers = LRUCache<string, { site: Site; answer: Promise<unknown> }>;
const answersOf = new WeakMap<SiteCatalog, Answers>();

/**
 * The answer to `key` (what the read is and everything it was asked with) on the site: from
 * memory, or from `read`, kept for the next shopper. A read that fails is not kept. The cards
 * carry the site's own settings, so a site changed since is a miss.
 */
export function catalogueAnswer<T>(
  catalog: SiteCatalog,
  site: Site,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  let answers = answersOf.get(catalog);
  if (!answers) {
    answers = ttlCache({ ttlMs: ANSWER_TTL_MS, max: ANSWERS_PER_SITE });
    answersOf.set(catalog, answers);
  }
  const kept = answers.get(key);
  if (kept?.site === site) return kept.answer as Promise<T>;
  const answer = read();
  answers.set(key, { site, answer });
  answer.catch(() => answers.delete(key));
  return answer;
}
