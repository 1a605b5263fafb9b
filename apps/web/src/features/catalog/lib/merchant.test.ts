// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isCreditCode, licenceFileProblem } from './merchant.ts';

describe('licenceFileProblem', () => {
  it('accepts PNG and JPEG up to 2 MB', () => {
    expect(licenceFileProblem({ type: 'image/png', size: 1024 })).toBeNull();
    expect(licenceFileProblem({ type: 'image/jpeg', size: 2 * 1024 * 1024 })).toBeNull();
  });
  it('refuses other types, bigger files and empty files', () => {
    expect(licenceFileProblem({ type: 'application/pdf', size: 10 })).toMatch(/PNG、JPG、WebP/);
    expect(licenceFileProblem({ type: 'image/png', size: 2 * 1024 * 1024 + 1 })).toMatch(/2MB/);
    expect(licenceFileProblem({ type: 'image/png', size: 0 })).toMatch(/空文件/);
  });
});

describe('isCreditCode', () => {
  it('checks the 18-character unified social credit code', () => {
    expect(isCreditCode('91350100M000100Y43')).toBe(true);
    expect(isCreditCode('91350100M000100Y4')).toBe(false);
    expect(isCreditCode('91350100m000100y43')).toBe(false);
  });
});
