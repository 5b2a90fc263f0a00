/**
 * Issue 14, finding 1: the cache's check-then-write race (src/io/cache-dir.ts).
 *
 * Another user is simulated by this (root) process acting as uid 65534 would:
 * planting directories and symbolic links where 65534 could write, chowned to
 * 65534. The race window is driven deterministically: the cache is first
 * looked up (the point where the old code checked the directory), then the
 * attacker acts, then the entry is written (the old code's write) — the same
 * order a slow parse gives a real run, without relying on timing.
 * On c63dd70 the victim files are overwritten (through the predictable
 * temporary names `<entry>.<pid>.<n>.tmp` and followed symbolic links).
 * Nobody else can act on a directory the cache uses (it and every directory
 * above it are checked when it is opened), so what the user's own processes
 * do to it meanwhile is not tested here.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { enableCompileCache } from '../../src/cli/start.js';
import { fileCatalogCache } from '../../src/cli/catalog-cache.js';
import type { CatalogFileResult } from '../../src/formats/catalog.js';
import { DEFAULT_LIMITS } from '../../src/io/read.js';

const NOBODY = 65534;
const root = mkdtempSync(join(tmpdir(), 'toolsearch-race-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A fresh directory (0700, root's) for one scenario. */
const scenario = (): string => {
  const d = join(root, `s${n++}`);
  mkdirSync(d, { mode: 0o700 });
  return d;
};

/** A root-owned private file that must never change. */
function victim(dir: string, name = 'victim'): string {
  const p = join(dir, name);
  writeFileSync(p, 'root secret\n', { mode: 0o600 });
  return p;
}

/** A directory created by "another user": mode 0777, owned by 65534. */
function attackerDir(path: string): void {
  mkdirSync(path);
  chmodSync(path, 0o777);
  chownSync(path, NOBODY, NOBODY);
}

/** A symbolic link owned by 65534 (lchown: the link itself). */
function attackerLink(target: string, path: string): void {
  symlinkSync(target, path);
  lchownSync(path, NOBODY, NOBODY);
}

/** Links at every name the old code's temporaries could have (`<path>.<pid>.<n>.tmp`) and at the entry itself. */
function plantLinks(dir: string, entryNames: readonly string[], target: string): void {
  for (const entry of entryNames) {
    for (let i = 0; i < 32; i++) attackerLink(target, join(dir, `${entry}.${process.pid}.${i}.tmp`));
  }
}

const RESULT: CatalogFileResult = {
  tools: [
    { name: 'planted_by_cache', description: 'd', static: false, source: { file: 'c.yaml', line: 2, column: 5 } },
  ],
  format: 'toolsearch',
  warnings: [],
};
const TEXT = 'tools:\n  - name: planted_by_cache\n    description: d\n';

const SETTINGS = { format: 'auto', prefix: null, limits: DEFAULT_LIMITS };

/** A catalog cache in `dir`, its entry for one file (get, set), and the names an entry may have (old code and new). */
function catalogCache(dir: string) {
  const cache = fileCatalogCache(dir, () => 'race-test');
  const entry = {
    get: () => cache.get('c.yaml', TEXT, SETTINGS),
    set: () => cache.set('c.yaml', TEXT, SETTINGS, RESULT),
  };
  return { cache, entry, names: () => readdirSync(dir).filter((f) => f.startsWith('catalog-')) };
}

/** Names the old code's entries had for a file (`catalog-<id>`, `catalog-<id>.entry`): where it wrote through links. */
const OLD_NAMES = ['catalog-0123456789abcdef', 'catalog-0123456789abcdef.entry'];

describe.runIf(process.getuid?.() === 0)('finding 1: cache race → arbitrary file overwrite', () => {
  test(
    '(a) cache directory not created yet, in a sticky directory: ' +
      'another user creating it in the window overwrites nothing',
    () => {
      const s = scenario();
      const secret = victim(s);
      const sticky = join(s, 'tmp');
      mkdirSync(sticky);
      chmodSync(sticky, 0o1777);
      const dir = join(sticky, 'toolsearch');
      const { entry } = catalogCache(dir);
      expect(entry.get()).toBeUndefined(); // the old code's check: the directory does not exist
      // The window (a slow parse): the attacker makes the directory if it still can, and plants links in it.
      if (!existsSync(dir)) {
        attackerDir(dir);
        plantLinks(dir, OLD_NAMES, secret);
      }
      entry.set();
      expect(readFileSync(secret, 'utf8')).toBe('root secret\n');
      // Their directory is not used: nothing of ours in it.
      expect(readdirSync(dir).filter((f) => !f.endsWith('.tmp'))).toEqual([]);
      // Control: without the attacker the cache works, in a directory made ours and private.
      const fresh = join(sticky, 'fresh');
      catalogCache(fresh).entry.set();
      expect(lstatSync(fresh).uid).toBe(0);
      expect(lstatSync(fresh).mode & 0o777).toBe(0o700);
      expect(
        catalogCache(fresh)
          .entry.get()
          ?.tools.map((t) => t.name),
      ).toEqual(['planted_by_cache']);
    },
  );

  test("(a) Node's compile cache (src/cli/start.ts): a cache directory another user made is not handed to Node", () => {
    const s = scenario();
    const sticky = join(s, 'tmp');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const dir = join(sticky, 'toolsearch');
    attackerDir(dir);
    const handed: (string | undefined)[] = [];
    const api = { enableCompileCache: (d?: string) => (handed.push(d), { status: 1, directory: d }) };
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: dir }, api)).toBeNull();
    expect(handed).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    // Control: without the attacker, a private directory of ours (0700) is made and handed over.
    const fresh = join(sticky, 'fresh');
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: fresh }, api)).toBe(join(fresh, 'compiled'));
    expect(lstatSync(join(fresh, 'compiled')).mode & 0o777).toBe(0o700);
    expect(handed).toEqual([join(fresh, 'compiled')]);
  });

  test(
    '(b) private cache directory whose parent others can write: ' +
      'swapped in the window, nothing overwritten, no cache used',
    () => {
      const s = scenario();
      const secret = victim(s);
      const xdg = join(s, 'xdg');
      mkdirSync(xdg);
      chmodSync(xdg, 0o777); // writable by others, not sticky
      const dir = join(xdg, 'toolsearch');
      mkdirSync(dir, { mode: 0o700 }); // ours and private: the old check passes
      const { entry } = catalogCache(dir);
      expect(entry.get()).toBeUndefined();
      // The window: the attacker (who can write xdg) moves our directory away and puts theirs in its place.
      renameSync(dir, join(xdg, 'moved'));
      attackerDir(dir);
      plantLinks(dir, OLD_NAMES, secret);
      entry.set();
      expect(readFileSync(secret, 'utf8')).toBe('root secret\n');
      expect(readdirSync(join(xdg, 'moved'))).toEqual([]); // and no cache at all in such a place
    },
  );

  test(
    "a cache path that is another user's symbolic link (in a sticky " +
      'directory) to a private directory of ours is not used',
    () => {
      const s = scenario();
      const ours = join(s, 'private');
      mkdirSync(ours, { mode: 0o700 });
      const sticky = join(s, 'tmp');
      mkdirSync(sticky);
      chmodSync(sticky, 0o1777);
      const dir = join(sticky, 'toolsearch');
      attackerLink(ours, dir);
      const { entry } = catalogCache(dir);
      expect(entry.get()).toBeUndefined();
      entry.set();
      expect(readdirSync(ours)).toEqual([]);
    },
  );

  test('an entry that is a symbolic link is never read through', () => {
    const s = scenario();
    const dir = join(s, 'cache');
    const { entry, names } = catalogCache(dir);
    entry.set();
    const [name] = names();
    const path = join(dir, name!);
    const copy = join(s, 'copy');
    writeFileSync(copy, readFileSync(path), { mode: 0o600 });
    rmSync(path);
    symlinkSync(copy, path);
    expect(catalogCache(dir).entry.get()).toBeUndefined();
    // Control: the same bytes as a file are a hit.
    rmSync(path);
    renameSync(copy, path);
    expect(
      catalogCache(dir)
        .entry.get()
        ?.tools.map((t) => t.name),
    ).toEqual(['planted_by_cache']);
  });

  test(
    'ancestors: a directory above the cache that others can write (not ' +
      'sticky), or that another user owns, means no cache',
    () => {
      const groupWritable = (p: string) => {
        chownSync(p, 0, NOBODY); // a group of other users
        chmodSync(p, 0o775);
      };
      for (const make of [
        (p: string) => chmodSync(p, 0o777),
        (p: string) => chownSync(p, NOBODY, NOBODY),
        groupWritable,
      ]) {
        const s = scenario();
        const above = join(s, 'above');
        mkdirSync(above, { mode: 0o755 });
        make(above);
        const dir = join(above, 'a', 'toolsearch');
        const { entry } = catalogCache(dir);
        entry.get();
        entry.set();
        expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      }
      // Control: the same shape, every directory safe (a sticky one, and one writable by the user's own
      // private group — root's group 0 here — among them), is used.
      const s = scenario();
      chmodSync(s, 0o1777);
      mkdirSync(join(s, 'a'));
      chmodSync(join(s, 'a'), 0o775);
      const dir = join(s, 'a', 'toolsearch');
      const { entry, names } = catalogCache(dir);
      entry.set();
      expect(readdirSync(dir).sort()).toEqual(['CACHEDIR.TAG', ...names()]);
      expect(names()).toHaveLength(1);
      expect(basename(dirname(dir))).toBe('a');
    },
  );
});
