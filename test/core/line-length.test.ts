/**
 * Lines of src/, test/ and bin/ are at most 120 characters (code points), strings and comments included:
 * Biome formats code to that width but never splits a string or a comment. The generated Unicode tables
 * are the one exception, and the top-level fixtures/ (inputs, byte for byte) are not walked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX = 120;
const GENERATED = new Set(['src/core/unicode-tables.ts']);

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : sources(rel);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) && !GENERATED.has(rel) ? [rel] : [];
  });
}

/** `file:line (n characters)` for every line longer than MAX. */
function longLines(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const n = [...line.replace(/\r$/, '')].length;
    if (n > MAX) out.push(`${file}:${i + 1} (${n} characters)`);
  });
  return out;
}

describe('line length', () => {
  const files = ['src', 'test', 'bin'].flatMap(sources);

  it('every line in src/, test/ and bin/ is at most 120 characters', () => {
    expect(files.flatMap((f) => longLines(f, readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('walks the sources (the check is not vacuous)', () => {
    expect(files).toEqual(
      expect.arrayContaining(['src/core/scorer.ts', 'src/cli/main.ts', 'test/core/line-length.test.ts']),
    );
    expect(files.some((f) => f.startsWith('bin/'))).toBe(true);
    expect(files).not.toContain('src/core/unicode-tables.ts');
  });

  it('counts characters, not bytes or UTF-16 units, and names file and line', () => {
    const ok = `// ${'─'.repeat(117)}`;
    const astral = `'${'𝔘'.repeat(118)}'`;
    expect(longLines('a.ts', `${ok}\n${astral}\n${'x'.repeat(121)}\r\n${'y'.repeat(120)}`)).toEqual([
      'a.ts:3 (121 characters)',
    ]);
    expect(longLines('b.ts', `\n\n${'z'.repeat(130)}`)).toEqual(['b.ts:3 (130 characters)']);
  });
});
