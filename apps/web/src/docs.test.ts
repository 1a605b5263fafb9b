// @vitest-environment node
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('repository documents (issue 17, item 16)', () => {
  it.each([
    'README.md',
    'ARCHITECTURE.md',
    'docs/product.md',
  ])('%s links only inside the repository', (file) => {
    const text = readFileSync(`${root}${file}`, 'utf8');
    expect(text).not.toMatch(/\.\.\/shared\//);
    const base = file.includes('/') ? `${root}${file.slice(0, file.lastIndexOf('/') + 1)}` : root;
    for (const [, target] of text.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g))
      if (!/^https?:/.test(target!)) expect(existsSync(`${base}${target}`), `${file} → ${target}`).toBe(true);
  });
});
