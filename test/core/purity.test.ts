/** src/core is pure: no imports from outside src/core, no node: modules, no packages. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const coreDir = fileURLToPath(new URL('../../src/core/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.(ts|tsx|js|mjs)$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

describe('core purity', () => {
  it('imports only relative modules inside src/core', () => {
    const offending: string[] = [];
    for (const file of sources(coreDir)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/gm,
      )) {
        const spec = m[1] ?? m[2]!;
        const inside = spec.startsWith('.') && path.resolve(path.dirname(file), spec).startsWith(coreDir);
        if (!inside) offending.push(`${path.relative(coreDir, file)}: ${spec}`);
      }
      if (/\brequire\s*\(/.test(text)) offending.push(`${path.relative(coreDir, file)}: require()`);
      if (/\bprocess\./.test(text)) offending.push(`${path.relative(coreDir, file)}: process`);
    }
    expect(offending).toEqual([]);
  });

  it('finds the core files at all (the check is not vacuous)', () => {
    expect(sources(coreDir).map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['scorer.ts', 'middleware.ts', 'toolsearch.ts', 'text.ts']),
    );
  });

  it('the generated Unicode tables are up to date with @unicode/unicode-15.0.0', async () => {
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync(process.execPath, ['test/tools/gen-unicode-tables.mjs', '--check'], { encoding: 'utf8' });
    expect(out.trim()).toBe('unicode tables up to date');
  });
});
