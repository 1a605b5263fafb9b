import { PART_LOAD_TIMEOUT_MS } from '@sitemall/contract';

/** A page part that did not load in time (spec section 8); the message names the part. */
export class PartLoadTimeoutError extends Error {
  constructor(readonly part: string) {
    super(`页面模块加载超时：${part}`);
    this.name = 'PartLoadTimeoutError';
  }
}

/**
 * Wraps a lazy route import so that loading a page part longer than PART_LOAD_TIMEOUT_MS
 * (120000 ms) fails with an error naming the part; the route's errorElement shows it.
 */
export function lazyPart<T>(
  part: string,
  load: () => Promise<T>,
  timeoutMs = PART_LOAD_TIMEOUT_MS,
): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new PartLoadTimeoutError(part)), timeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}
