/**
 * Issue 14, finding 8: pruning the cache never deletes a user's file
 * (src/io/cache-dir.ts). Only a directory toolsearch created and marked
 * with a CACHEDIR.TAG (or adopted: it held nothing but toolsearch's files) is
 * written to and pruned, and only names of toolsearch's exact patterns
 * (`catalog-<16 hex>.json`, and the `.entry` of earlier versions) are pruned. On
 * c63dd70 every file whose name started with `catalog-` or `code-` was a
 * candidate: one `search` deleted the user's oldest `catalog-*.yaml` and
 * `code-review-*.md` files beyond 64 and 16.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CACHEDIR_SIGNATURE } from '../../src/io/cache-dir.js';
import { fileCatalogCache, loadCatalogFilesCached, MAX_ENTRIES } from '../../src/cli/catalog-cache.js';
import { spawnCli } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'toolsearch-prune-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `d${n++}`);
const OLD = new Date(Date.now() - 86_400_000);
/** How many code caches c63dd70 kept (it pruned `code-*` files beyond them); the CLI now keeps none of its own. */
const MAX_CODE_CACHES = 16;

/** The user's own files, older than anything a run writes. */
function userFiles(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const names = [
    ...Array.from({ length: MAX_ENTRIES + 6 }, (_, i) => `catalog-${i}.yaml`),
    ...Array.from({ length: MAX_CODE_CACHES + 4 }, (_, i) => `code-review-${i}.md`),
    'catalog-0123456789abcdef.txt',
    'code-notes.bin',
  ];
  for (const f of names) {
    writeFileSync(join(dir, f), `mine: ${f}\n`, { mode: 0o600 });
    utimesSync(join(dir, f), OLD, OLD);
  }
  return names.sort();
}

describe('finding 8: cache pruning deletes only what toolsearch wrote', () => {
  test(
    "TOOLSEARCH_CACHE_DIR at a directory of the user's files: one search deletes none, and writes nothing " + 'there',
    async () => {
      const dir = fresh();
      const mine = userFiles(dir);
      const r = await spawnCli(['search', '-c', 'fixtures/catalogs/demo.mcp.json', 'slack'], {
        env: { TOOLSEARCH_CACHE_DIR: dir },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(mine);
      for (const f of mine) expect(readFileSync(join(dir, f), 'utf8')).toBe(`mine: ${f}\n`);
    },
  );

  test('in a directory toolsearch made (tagged), user files added later survive pruning of catalog entries', () => {
    const dir = fresh();
    const catalogs = join(root, `cats${n++}`);
    mkdirSync(catalogs);
    const cache = fileCatalogCache(dir, () => 'prune-test');
    const load = (i: number) => {
      const f = join(catalogs, `c${i}.yaml`);
      writeFileSync(f, `tools:\n  - name: t${i}\n    description: d\n`);
      loadCatalogFilesCached([f], {}, cache);
    };
    load(0);
    expect(readFileSync(join(dir, 'CACHEDIR.TAG'), 'utf8').startsWith(`${CACHEDIR_SIGNATURE}\n`)).toBe(true);
    const mine = userFiles(dir);
    for (let i = 1; i < MAX_ENTRIES + 5; i++) load(i);
    const names = readdirSync(dir);
    expect(names.filter((f) => /^catalog-[0-9a-f]{16}\.json$/.test(f))).toHaveLength(MAX_ENTRIES);
    for (const f of mine) expect(readFileSync(join(dir, f), 'utf8')).toBe(`mine: ${f}\n`);
    expect(names.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test("an existing directory holding only toolsearch's files (an older cache) is adopted: tagged and used", () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'catalog-0123456789abcdef'), 'old entry', { mode: 0o600 }); // an entry of an older version
    const f = join(root, `one${n++}.yaml`);
    writeFileSync(f, 'tools:\n  - name: a\n    description: d\n');
    loadCatalogFilesCached(
      [f],
      {},
      fileCatalogCache(dir, () => 'adopt'),
    );
    expect(
      readdirSync(dir)
        .filter((x) => x !== 'catalog-0123456789abcdef')
        .map((x) => x.replace(/[0-9a-f]{16}/, 'H'))
        .sort(),
    ).toEqual(['CACHEDIR.TAG', 'catalog-H.json']);
  });

  test(
    "a damaged tag among nothing but toolsearch's files is written again " +
      '(the cache is not lost); beside a user file it is not',
    () => {
      for (const [damage, userFile, kept] of [
        ['garbage', false, true],
        ['garbage', true, false],
      ] as const) {
        const dir = fresh();
        const f = join(root, `tag${n++}.yaml`);
        writeFileSync(f, 'tools:\n  - name: a\n    description: d\n');
        const load = () =>
          loadCatalogFilesCached(
            [f],
            {},
            fileCatalogCache(dir, () => `tag-${n++}`),
          );
        load();
        writeFileSync(join(dir, 'CACHEDIR.TAG'), damage);
        if (userFile) writeFileSync(join(dir, 'notes.txt'), 'mine');
        load();
        expect(readFileSync(join(dir, 'CACHEDIR.TAG'), 'utf8').startsWith(CACHEDIR_SIGNATURE)).toBe(kept);
        expect(readdirSync(dir).filter((x) => x.endsWith('.json'))).toHaveLength(kept ? 2 : 1);
      }
    },
  );
});
