import { VERSION_KEY } from '../site/storage.ts';

declare global {
  interface Window {
    __SITEMALL_VERSION__?: string;
  }
}

export const VERSION_URL = '/shoppingmall/version.js';

export type VersionVerdict = 'stored' | 'same' | 'reload' | 'unknown';

/** Compares the deployed version with the stored one (spec section 4, "Version check"). */
export function compareVersion(
  deployed: string | undefined,
  storage: Storage = localStorage,
): VersionVerdict {
  if (!deployed) return 'unknown';
  const stored = storage.getItem(VERSION_KEY);
  if (stored === deployed) return 'same';
  storage.setItem(VERSION_KEY, deployed);
  return stored === null ? 'stored' : 'reload';
}

let inFlight = false;

/**
 * Loads version.js with a timestamp (never cached); it sets window.__SITEMALL_VERSION__.
 * A version other than the stored one means a new deployment: the page reloads once (the new
 * version is stored first, so it cannot loop).
 */
export function checkVersion(reload: () => void = () => window.location.reload()): void {
  if (inFlight) return;
  inFlight = true;
  const script = document.createElement('script');
  script.src = `${VERSION_URL}?t=${Date.now()}`;
  script.async = true;
  const done = () => {
    inFlight = false;
    script.remove();
  };
  script.onload = () => {
    done();
    if (compareVersion(window.__SITEMALL_VERSION__) === 'reload') reload();
  };
  script.onerror = done;
  document.head.appendChild(script);
}
