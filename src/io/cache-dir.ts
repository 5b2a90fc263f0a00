/**
 * Where toolsearch keeps its caches (loaded catalogs: src/cli/catalog-cache.ts; Node's compiled code:
 * src/cli/start.ts), the switch that turns them off, and the rules that keep another user out of them
 * (README, "Security model"):
 *
 * - A cache directory is used only when it is the user's own and nobody else can write it
 *   (mode & 0o022 = 0), no symbolic link on its path belongs to someone else, and every directory above
 *   it belongs to root or the user and is not writable by others (its group counts, unless it is the
 *   user's private group), or is sticky (like /tmp). Otherwise there is no cache. This is checked once,
 *   when the directory is opened: after that nobody else can rename, replace or write anything on its
 *   path, so the path is used as it is.
 * - A file is written to a temporary with a random name, created with O_CREAT|O_EXCL|O_NOFOLLOW (never
 *   an existing file, never through a symbolic link), mode 0600, then renamed over the entry: readers see
 *   the old file or the new one. A file is read with O_NOFOLLOW, only when it is a regular file of the
 *   user's that nobody else can write.
 * - Files are written and pruned only in a directory marked as ours with a CACHEDIR.TAG
 *   (https://bford.info/cachedir/), written when the directory is created (or adopted: an existing
 *   directory holding nothing but our own files), and only files whose names match the caller's pattern.
 *   A directory holding other files is never written to.
 *
 * Any problem is a miss or a skipped write, never an error.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Whether the environment turns the cache off (`TOOLSEARCH_CACHE=0`, `off`, `false` or `no`). */
export function cacheDisabledByEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.TOOLSEARCH_CACHE?.trim().toLowerCase();
  return v === '0' || v === 'off' || v === 'false' || v === 'no';
}

/**
 * The cache directory: `$TOOLSEARCH_CACHE_DIR` (a relative one is taken from
 * the working directory: it was asked for), else `$XDG_CACHE_HOME/toolsearch`
 * when that is absolute (the XDG spec: a relative one is ignored), else
 * `$HOME/.cache/toolsearch`. Null when there is no absolute home (`HOME=`):
 * then there is no cache, rather than one in the working directory.
 */
export function cacheDirFromEnv(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.TOOLSEARCH_CACHE_DIR) return resolve(env.TOOLSEARCH_CACHE_DIR);
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'toolsearch');
  let home: string;
  try {
    // node:os only when HOME is unset (loading it costs every start a little).
    home = env.HOME ?? (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();
  } catch {
    return null;
  }
  return home !== '' && isAbsolute(home) ? join(home, '.cache', 'toolsearch') : null;
}

/** Why {@link cacheDirFromEnv} gave no directory, for a note under `--verbose`. */
export const NO_HOME_NOTE = 'no cache: HOME is empty or relative (set TOOLSEARCH_CACHE_DIR to use one)';

const UID = process.getuid?.();
const GID = process.getgid?.();

/** Whether a file with this status belongs to this user and nobody else can write it. */
function ownedAndPrivate(st: { uid: number; mode: number }): boolean {
  return (UID === undefined || st.uid === UID) && (st.mode & 0o022) === 0;
}

/**
 * Whether a directory above a cache cannot be used to swap what lies below it: it belongs to root or to
 * this user, and nobody else can write it, or it is sticky (others may write it, but not rename or remove
 * what is ours). Writable by its group counts as writable by others, except for the user's own private
 * group (group id = user id, the "user private group" scheme of Debian, Ubuntu and Fedora, whose umask
 * 002 makes `~/.cache` 0775) — the leniency Debian's OpenSSH applies to `~/.ssh`.
 */
function safeAncestor(st: Stats): boolean {
  if (UID === undefined) return true;
  if (st.uid !== 0 && st.uid !== UID) return false;
  if ((st.mode & 0o1000) !== 0) return true;
  const privateGroup = GID === UID && st.gid === GID;
  return (st.mode & 0o002) === 0 && ((st.mode & 0o020) === 0 || privateGroup);
}

/** The CACHEDIR.TAG signature (Cache Directory Tagging Specification, https://bford.info/cachedir/). */
export const CACHEDIR_SIGNATURE = 'Signature: 8a477f597d28d172789f06886806bc55';
const TAG_NAME = 'CACHEDIR.TAG';
const TAG_TEXT =
  `${CACHEDIR_SIGNATURE}\n# This file is a cache directory tag created by toolsearch.\n# For ` +
  `information about cache directory tags see https://bford.info/cachedir/\n`;

/** Catalog entries (`.entry` and no extension: the names of earlier versions, pruned like the others). */
export const CATALOG_ENTRY_NAME = /^catalog-[0-9a-f]{16}(?:\.json|\.entry)?$/;
/** V8's code cache of the CLI's first file on Node 20 (src/cli/code-cache.ts). */
export const CODE_CACHE_NAME = /^code-[0-9a-f]{16}\.v8$/;
/** The subdirectory of Node's compile cache (src/cli/start.ts): Node writes the files inside it. */
export const COMPILE_CACHE_SUBDIR = 'compiled';
/** Temporaries: `.<name>.<16 hex>.tmp`. */
const TEMPORARY_NAME = /^\.(?:catalog-[0-9a-f]{16}\.json|code-[0-9a-f]{16}\.v8|CACHEDIR\.TAG)\.[0-9a-f]{16}\.tmp$/;
/** Every name toolsearch gives a file in a cache directory: a directory without a tag holding others is not ours. */
const OWN_NAMES = [CATALOG_ENTRY_NAME, CODE_CACHE_NAME, TEMPORARY_NAME, /^compiled$/];
/** A temporary older than this is one a killed process left behind: pruning removes it. */
const STALE_TEMPORARY_MS = 10 * 60 * 1000;

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * 16 hex digits for a temporary file name. The file is created with O_EXCL in a directory only its owner
 * can write, so the name needs no secrecy, and no node:crypto (loading it costs a run a few ms).
 */
function randomHex(): string {
  const part = (): string =>
    Math.floor(Math.random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return part() + part();
}

/**
 * Whether the path as given cannot be redirected by someone else: every existing directory along it is
 * a safe ancestor, and every symbolic link on it belongs to root or the user (in a sticky directory,
 * others could own one). Stops at the first component that does not exist yet.
 */
function safePathAsGiven(abs: string): boolean {
  const parts = abs.split('/').filter((p) => p !== '');
  let p = '/';
  for (let i = 0; i <= parts.length; i++) {
    if (i > 0) p = join(p, parts[i - 1]!);
    let l: Stats;
    try {
      l = lstatSync(p);
    } catch {
      return true;
    }
    if (l.isSymbolicLink() && UID !== undefined && l.uid !== 0 && l.uid !== UID) return false;
    let s: Stats;
    try {
      s = l.isSymbolicLink() ? statSync(p) : l;
    } catch {
      return false;
    }
    if (!s.isDirectory()) return false;
    if (i < parts.length && !safeAncestor(s)) return false;
  }
  return true;
}

/** Whether every directory above the real path `real` is a safe ancestor. */
function safeAncestors(real: string): boolean {
  for (let p = dirname(real); ; p = dirname(p)) {
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch {
      return false;
    }
    if (!st.isDirectory() || !safeAncestor(st)) return false;
    if (p === dirname(p)) return true;
  }
}

/** A name a cache file may have: one component, not hidden (temporaries are). */
const plainName = (name: string): boolean => /^[\w][\w.-]*$/.test(name);

/** A cache directory, checked (see {@link openCacheDir}). */
export class CacheDir {
  private tagged: boolean | undefined;

  /** `path`: the directory's real path, checked. */
  constructor(readonly path: string) {}

  /** The file `name`'s bytes, when it is a regular file of the user's that nobody else can write. */
  read(name: string): Buffer | undefined {
    if (!plainName(name)) return undefined;
    let fd: number;
    try {
      fd = openSync(join(this.path, name), constants.O_RDONLY | O_NOFOLLOW);
    } catch {
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      return st.isFile() && ownedAndPrivate(st) ? readFileSync(fd) : undefined;
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Writes `data` as `name` (a temporary renamed over it), then keeps only the newest `prune.keep` files
   * matching `prune.pattern` (`name` must match it). Returns whether the file was written. Never writes
   * into a directory holding files that are not toolsearch's.
   */
  write(name: string, data: Buffer, prune: { readonly pattern: RegExp; readonly keep: number }): boolean {
    if (!plainName(name) || !prune.pattern.test(name) || !OWN_NAMES.some((re) => re.test(name))) return false;
    if (!this.isTagged() || !this.writeFile(name, data)) return false;
    this.prune(prune.pattern, prune.keep);
    return true;
  }

  /** Removes the file `name` (a damaged entry); no error when it is gone. */
  remove(name: string): void {
    if (plainName(name)) this.unlink(name);
  }

  private unlink(name: string): void {
    try {
      unlinkSync(join(this.path, name));
    } catch {
      // already gone
    }
  }

  /**
   * The real path of the subdirectory `name` (one of toolsearch's names: {@link COMPILE_CACHE_SUBDIR}),
   * made 0700 when missing, for a cache that writes its own files; null when this directory is not ours or
   * the subdirectory may not be used (the same rules as this directory).
   */
  subdir(name: string): string | null {
    if (!plainName(name) || !OWN_NAMES.some((re) => re.test(name)) || !this.isTagged()) return null;
    try {
      mkdirSync(join(this.path, name), { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
    return openChecked(join(this.path, name), false)?.path ?? null;
  }

  /** Whether this directory is marked as ours (its tag written now when it holds nothing but our files). */
  private isTagged(): boolean {
    if (this.tagged !== undefined) return this.tagged;
    const tag = this.read(TAG_NAME);
    if (tag !== undefined && tag.subarray(0, CACHEDIR_SIGNATURE.length).toString('latin1') === CACHEDIR_SIGNATURE)
      return (this.tagged = true);
    let names: string[];
    try {
      names = readdirSync(this.path);
    } catch {
      return (this.tagged = false);
    }
    // A damaged tag (not a regular private file with the signature) among nothing but our files is written again.
    if (!names.every((n) => n === TAG_NAME || OWN_NAMES.some((re) => re.test(n)))) return (this.tagged = false);
    return (this.tagged = this.writeFile(TAG_NAME, Buffer.from(TAG_TEXT, 'utf8')));
  }

  /** Writes `data` as `name` through a fresh temporary `.<name>.<random>.tmp`. */
  private writeFile(name: string, data: Buffer): boolean {
    const tmp = `.${name}.${randomHex()}.tmp`;
    let fd: number;
    try {
      fd = openSync(
        join(this.path, tmp),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
        0o600,
      );
    } catch {
      return false;
    }
    let ok = false;
    try {
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
      renameSync(join(this.path, tmp), join(this.path, name));
      ok = true;
    } catch {
      ok = false;
    } finally {
      closeSync(fd);
      if (!ok) this.unlink(tmp);
    }
    return ok;
  }

  /**
   * Removes the oldest files matching `pattern` beyond the `keep` most recently modified, and temporaries
   * a killed process left behind. Files another process removes meanwhile are no error.
   */
  private prune(pattern: RegExp, keep: number): void {
    let names: string[];
    try {
      names = readdirSync(this.path);
    } catch {
      return;
    }
    const now = Date.now();
    const aged: Array<{ n: string; t: number }> = [];
    for (const n of names) {
      const entry = pattern.test(n);
      if (!entry && !TEMPORARY_NAME.test(n)) continue;
      let st: Stats;
      try {
        st = lstatSync(join(this.path, n));
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      if (entry) aged.push({ n, t: st.mtimeMs });
      else if (now - st.mtimeMs > STALE_TEMPORARY_MS) this.unlink(n);
    }
    if (aged.length <= keep) return;
    aged.sort((a, b) => b.t - a.t);
    for (const { n } of aged.slice(keep)) this.remove(n);
  }
}

/**
 * A cache file's name for `s` (what the file is made from): a 64-bit hash as 16 hex digits, two 32-bit lanes
 * (FNV-1a and a multiply-xorshift). A name, not a defence: what a file holds is checked when it is read.
 */
export function nameHash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * The cache directory `dir`, checked; with `create` it is made (0700) when it does not exist yet. Null
 * when it does not exist (and `create` is false), may not be used (see the rules above) or cannot be
 * made. Creating it only where a write follows keeps a run that stores nothing from leaving a directory
 * behind; the check comes after the creation, so a directory someone else made meanwhile is refused.
 */
export function openCacheDir(dir: string, options: { readonly create: boolean }): CacheDir | null {
  return openChecked(resolve(dir), options.create);
}

function openChecked(abs: string, create: boolean): CacheDir | null {
  if (!safePathAsGiven(abs)) return null;
  if (create) {
    try {
      mkdirSync(abs, { recursive: true, mode: 0o700 });
    } catch {
      return null;
    }
  }
  try {
    const real = realpathSync(abs);
    const st = lstatSync(real);
    if (!st.isDirectory() || !ownedAndPrivate(st) || !safeAncestors(real)) return null;
    return new CacheDir(real);
  } catch {
    return null;
  }
}
