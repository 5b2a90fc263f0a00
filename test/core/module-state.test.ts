/**
 * No module-level globals that carry data from one call to another (issue 15: pass a context). The
 * module-level `let`s that remain are memos of a lazily loaded module or function, and process-wide
 * facts; each is listed here with what it holds, so a new one is a decision, not an accident.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.(ts|tsx|mjs|js)$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** `file: name` for every `let` or `var` at the top level of a module. */
function moduleLets(file: string, text: string): string[] {
  return [...text.matchAll(/^(?:export )?(?:let|var) +([A-Za-z_$][\w$]*)/gm)].map((m) => `${file}: ${m[1]}`);
}

describe('module-level state in src/', () => {
  it('is only lazy-load memos and process-wide facts', () => {
    const found = sources(SRC)
      .flatMap((f) => moduleLets(path.relative(SRC, f).split(path.sep).join('/'), readFileSync(f, 'utf8')))
      .sort();
    expect(found).toEqual([
      // Go's Unicode tables, built on the first code point outside ASCII
      'core/unicode-tables.ts: LOWER_RANGES',
      'core/unicode-tables.ts: TO_LOWER_RUNS',
      'core/unicode-tables.ts: UPPER_RANGES',
      // whether the exit handlers that end child processes are installed (once per process)
      'formats/mcp/children.ts: installed',
      // string-width and Intl.Segmenter, loaded and made on first use
      'render/width.ts: segmenter',
      'render/width.ts: stringWidthFn',
      // Ink, loaded on first use
      'tui/ink.ts: loaded',
    ]);
  });

  it('finds them (the check is not vacuous)', () => {
    expect(moduleLets('a.ts', 'let a = 1;\nexport let b;\n  let c = 2;\nvar d;\nconst e = 3;')).toEqual([
      'a.ts: a',
      'a.ts: b',
      'a.ts: d',
    ]);
  });
});
