/**
 * The cart save debounce (spec section 9: 600 ms, CART_SAVE_DEBOUNCE_MS). Quantity edits of a
 * line are collected; after `delayMs` without a new edit the latest quantity of every changed
 * line is saved in one call. Only the last value of a line is ever sent.
 */
export interface SaveQueue<K, V> {
  set(key: K, value: V): void;
  /** Saves what is pending now (leaving the page). */
  flush(): Promise<void>;
  /** Forgets what is pending (the line was removed). */
  drop(key: K): void;
  pending(): number;
  dispose(): void;
}

export function createSaveQueue<K, V>(options: {
  delayMs: number;
  save: (changes: Map<K, V>) => Promise<void>;
  onError?: (error: unknown) => void;
  timers?: {
    set: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
    clear: (id: ReturnType<typeof setTimeout>) => void;
  };
}): SaveQueue<K, V> {
  // Called as plain functions: a browser refuses setTimeout called as a method of another object.
  const setTimer = options.timers?.set ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.timers?.clear ?? ((id: ReturnType<typeof setTimeout>) => clearTimeout(id));
  let changes = new Map<K, V>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const stop = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };

  const flush = async () => {
    stop();
    if (changes.size === 0) return;
    const batch = changes;
    changes = new Map();
    try {
      await options.save(batch);
    } catch (error) {
      options.onError?.(error);
    }
  };

  return {
    set(key, value) {
      changes.set(key, value);
      stop();
      timer = setTimer(() => void flush(), options.delayMs);
    },
    flush,
    drop(key) {
      changes.delete(key);
      if (changes.size === 0) stop();
    },
    pending: () => changes.size,
    dispose: stop,
  };
}
