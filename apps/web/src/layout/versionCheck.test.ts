import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VERSION_KEY } from '../site/storage.ts';
import { checkVersion, compareVersion } from './versionCheck.ts';

beforeEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
  window.__SITEMALL_VERSION__ = undefined;
});

describe('version check', () => {
  it('stores the first version it sees', () => {
    expect(compareVersion('v1')).toBe('stored');
    expect(localStorage.getItem(VERSION_KEY)).toBe('v1');
  });

  it('does nothing for the same version', () => {
    localStorage.setItem(VERSION_KEY, 'v1');
    expect(compareVersion('v1')).toBe('same');
  });

  it('asks for a reload on a new version and stores it', () => {
    localStorage.setItem(VERSION_KEY, 'v1');
    expect(compareVersion('v2')).toBe('reload');
    expect(localStorage.getItem(VERSION_KEY)).toBe('v2');
  });

  it('ignores a missing version', () => {
    expect(compareVersion(undefined)).toBe('unknown');
  });

  it('loads version.js with a timestamp and reloads when it differs', () => {
    localStorage.setItem(VERSION_KEY, 'v1');
    const reload = vi.fn();
    checkVersion(reload);
    const script = document.head.querySelector('script');
    expect(script?.getAttribute('src')).toMatch(/^\/shoppingmall\/version\.js\?t=\d+$/);
    window.__SITEMALL_VERSION__ = 'v2';
    script?.onload?.(new Event('load'));
    expect(reload).toHaveBeenCalledOnce();
    expect(document.head.querySelector('script')).toBeNull();
  });
});
