/**
 * Where toolsearch keeps its caches (loaded catalogs, and the CLI's compiled
 * code: see src/cli/start.ts), and the switch that turns them off. Kept apart
 * from catalog-cache.ts so that the start module needs nothing else.
 */
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Whether the environment turns the cache off (`TOOLSEARCH_CACHE=0`, `off`, `false` or `no`). */
export function cacheDisabledByEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.TOOLSEARCH_CACHE?.trim().toLowerCase();
  return v === '0' || v === 'off' || v === 'false' || v === 'no';
}

/** The cache directory: `$TOOLSEARCH_CACHE_DIR`, else `$XDG_CACHE_HOME/toolsearch`, else `~/.cache/toolsearch`. */
export function cacheDirFromEnv(env: Readonly<Record<string, string | undefined>>): string {
  if (env.TOOLSEARCH_CACHE_DIR) return env.TOOLSEARCH_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'toolsearch');
}

/** Whether a file with this status belongs to this user and nobody else can write it. */
export function ownedAndPrivate(st: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/**
 * Whether a cache may live in `dir`: it is the user's own and nobody else can
 * write it, or it does not exist yet (it is then made so). A cache in a
 * directory others can write could be made to answer for them.
 */
export function privateDir(dir: string): boolean {
  try {
    return ownedAndPrivate(statSync(dir));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Temporary files written by this process so far (their names must differ). */
let temporaries = 0;

/**
 * Writes `data` as `dir/name`, private to the user: to a temporary file
 * renamed over it (readers see the old file or the new one, never a part),
 * in `dir` made 0700 when it does not exist yet. Then only the newest `keep`
 * files whose names start with `prefix` stay (temporary files a killed
 * process left behind among them). A failure (read-only, full disk) writes
 * nothing and is no error: a cache only misses.
 */
export function writeCacheFile(dir: string, name: string, data: Buffer, prune: { readonly prefix: string; readonly keep: number }): void {
  const path = join(dir, name);
  const tmp = `${path}.${process.pid}.${temporaries++}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
    return;
  }
  pruneOldest(dir, prune.prefix, prune.keep);
}

/**
 * Removes the oldest files of `dir` whose names start with `prefix` beyond
 * the `keep` most recently modified. Files another process removes meanwhile
 * are no error.
 */
export function pruneOldest(dir: string, prefix: string, keep: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  if (names.length <= keep) return;
  const aged = names.map((n) => {
    try {
      return { n, t: statSync(join(dir, n)).mtimeMs };
    } catch {
      return { n, t: 0 };
    }
  });
  aged.sort((a, b) => b.t - a.t);
  for (const { n } of aged.slice(keep)) {
    try {
      unlinkSync(join(dir, n));
    } catch {
      // removed by another process
    }
  }
}
