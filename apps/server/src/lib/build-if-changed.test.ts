import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './paths';

// The start script's source hash (scripts/build-if-changed.mjs, plain JavaScript run by npm start).
const script = path.join(REPO_ROOT, 'scripts/build-if-changed.mjs');
const { sourceHash } = (await import(script)) as {
  sourceHash: (inputs: string[], base: string) => string;
};

describe('npm start rebuilds only what changed', () => {
  it('keeps the hash while the sources are the same and changes it on any edit, new file or rename', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'sitemall-hash-'));
    try {
      await mkdir(path.join(base, 'src/pages'), { recursive: true });
      await writeFile(path.join(base, 'src/main.ts'), 'export const a = 1;\n');
      await writeFile(path.join(base, 'src/pages/home.tsx'), 'export default 1;\n');
      await writeFile(path.join(base, 'vite.config.ts'), 'export default {};\n');
      const inputs = ['src', 'vite.config.ts', 'missing.json'];
      const first = sourceHash(inputs, base);
      expect(sourceHash(inputs, base)).toBe(first);

      await writeFile(path.join(base, 'src/pages/home.tsx'), 'export default 2;\n');
      const edited = sourceHash(inputs, base);
      expect(edited).not.toBe(first);

      await writeFile(path.join(base, 'src/pages/about.tsx'), '');
      const added = sourceHash(inputs, base);
      expect(added).not.toBe(edited);

      await rename(path.join(base, 'src/pages/about.tsx'), path.join(base, 'src/pages/team.tsx'));
      expect(sourceHash(inputs, base)).not.toBe(added);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
