/**
 * Where toolsearch keeps its caches (loaded catalogs, and the CLI's compiled
 * code: see src/cli/start.ts), how it reads and writes them safely, and the
 * switch that turns them off. Kept apart from catalog-cache.ts so that the
 * start module needs nothing else.
 *
 * The rules (README, "Security model"), each enforced here and nowhere else:
 * - A cache directory is used only when it is the user's own and nobody else
 *   can write it (mode & 0o022 = 0), checked on the opened directory handle,
 *   and when every directory above it belongs to root or the user and is not
 *   writable by others (its group counts, unless it is the user's private
 *   group), or is sticky (like /tmp). Otherwise there is no cache.
 * - The directory is opened once per process; on Linux every later file
 *   operation goes through that handle (`/proc/self/fd/N/name`), so swapping
 *   the path for another directory or a symbolic link changes nothing; where
 *   there is no /proc, the path is checked again against the handle before
 *   each write and rename.
 * - A file is written to a temporary with a random name, created with
 *   O_CREAT|O_EXCL|O_NOFOLLOW (never an existing file, never through a
 *   symbolic link), mode 0600, then renamed over the entry after checking
 *   again that the directory is still private and the temporary is still the
 *   file written. A file is read with O_NOFOLLOW, only when it is a regular
 *   file of the user's that nobody else can write.
 * - Files are pruned only in a directory marked as ours with a CACHEDIR.TAG
 *   (https://bford.info/cachedir/), written when the directory is created
 *   (or adopted: an existing directory holding nothing but our own files),
 *   and only files whose names match the caller's exact pattern. A directory
 *   holding other files is never written to.
 * Any problem is a miss or a skipped write, never an error.
 *
 * Over 400 lines on purpose: the rules above are enforced in one place.
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
  readlinkSync,
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

/** Whether a file with this status belongs to this user and nobody else can write it. */
export function ownedAndPrivate(st: { uid: number; mode: number }): boolean {
  return (UID === undefined || st.uid === UID) && (st.mode & 0o022) === 0;
}

const GID = process.getgid?.();

/**
 * Whether a directory above a cache cannot be used to swap what lies below
 * it: it belongs to root or to this user, and nobody else can write it, or
 * it is sticky (others may write it, but not rename or remove what is ours).
 * Writable by its group counts as writable by others, except for the user's
 * own private group (group id = user id, the "user private group" scheme
 * of Debian, Ubuntu and Fedora, whose umask 002 makes `~/.cache` 0775) —
 * the leniency Debian's OpenSSH applies to `~/.ssh`.
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

/**
 * The names of every file toolsearch writes in a cache directory (each
 * caller's own pattern is one of these): catalog entries, code caches, and
 * temporaries (`.<name>.<16 hex>.tmp`). A directory without a tag holding
 * anything else is not ours, and is never written to.
 */
export const CATALOG_ENTRY_NAME = /^catalog-[0-9a-f]{16}(?:\.entry)?$/;
export const CODE_CACHE_NAME = /^code-[\w.-]+-[0-9]+-[0-9]+-v[0-9]+\.[0-9]+\.[0-9]+-\w+\.bin$/;
const TEMPORARY_NAME = new RegExp(
  String.raw`^\.(?:catalog-[0-9a-f]{16}\.entry|code-[\w.-]+-[0-9]+-[0-9]+-v[0-9]+\.[0-9]+\.[0-9]+-\w+\.bin` +
    String.raw`|CACHEDIR\.TAG)\.[0-9a-f]{16}\.tmp$`,
);
/** The subdirectory of Node's compile cache (src/cli/start.ts): Node writes the files inside it. */
export const COMPILE_CACHE_SUBDIR = 'compiled';
const OWN_NAMES = [CATALOG_ENTRY_NAME, CODE_CACHE_NAME, TEMPORARY_NAME, /^compiled$/];

/** A temporary older than this is one a killed process left behind: pruning removes it. */
const STALE_TEMPORARY_MS = 10 * 60 * 1000;

/** Test hooks: called at the points where another user could act (tests drive the race windows through them). */
export const cacheDirTestHooks: {
  /** After the directory was opened and checked, before a temporary is created. */
  beforeCreate?: (dir: string) => void;
  /** After the temporary was written, before the checks that precede its rename. */
  beforeRename?: (dir: string, temporary: string) => void;
} = {};

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/**
 * 16 hex digits for a temporary file name. The file is created with O_EXCL in a directory only its owner
 * can write, so the name needs no secrecy, and no node:crypto (loading it is most of what writing the
 * cache costs a first run).
 */
function randomHex(): string {
  const part = (): string =>
    Math.floor(Math.random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return part() + part();
}

const sameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/**
 * Whether the path as given cannot be redirected by someone else: every
 * existing directory along it is a safe ancestor, and every symbolic link on
 * it belongs to root or the user (in a sticky directory, others could own
 * one). Stops at the first component that does not exist yet.
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

/** Whether every directory above the real path `real` is a safe ancestor (and none is a symbolic link). */
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

/** A cache directory opened and checked (see {@link openCacheDir}). */
export interface CacheDir {
  /** The directory's real path. */
  readonly path: string;
  /**
   * The file `name`'s bytes, when it is a regular file of the user's that nobody else can write (never through a
   * symbolic link).
   */
  read(name: string): Buffer | undefined;
  /**
   * Writes `data` as `name` (a temporary renamed over it: readers see the old
   * file or the new one, never a part), then keeps only the newest
   * `prune.keep` files matching `prune.pattern` (`name` must match it).
   * Returns whether the file was written. Never writes into a directory
   * holding files that are not toolsearch's (see {@link CATALOG_ENTRY_NAME}).
   */
  write(name: string, data: Buffer, prune: { readonly pattern: RegExp; readonly keep: number }): boolean;
  /** Removes the file `name` (a damaged entry); no error when it is gone. */
  remove(name: string): void;
  /**
   * The real path of the subdirectory `name` (one of toolsearch's names, e.g.
   * {@link COMPILE_CACHE_SUBDIR}), made 0700 when missing, for a cache that
   * writes its own files; null when this directory is not ours or the
   * subdirectory may not be used (the same rules as this directory).
   */
  subdir(name: string): string | null;
  /** Closes the directory's handle. */
  close(): void;
}

/** A name a cache file may have: one component, not hidden (temporaries are). */
const plainName = (name: string): boolean => /^[\w][\w.-]*$/.test(name);

class OpenedCacheDir implements CacheDir {
  private tagged: boolean | undefined;

  constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly st: Stats,
    /** The path through the handle (`/proc/self/fd/N`), or null where there is none. */
    private readonly viaFd: string | null,
  ) {}

  /** Closes the handle (the directory is not used after). */
  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }

  private at(name: string): string {
    return join(this.viaFd ?? this.path, name);
  }

  /** Whether the handle is still a private directory of ours, and the path still names it where paths are used. */
  private stillOurs(): boolean {
    try {
      const now = fstatSync(this.fd);
      if (!now.isDirectory() || !ownedAndPrivate(now) || !sameFile(now, this.st)) return false;
      if (this.viaFd !== null) return true;
      return sameFile(lstatSync(this.path), now) && safeAncestors(this.path);
    } catch {
      return false;
    }
  }

  read(name: string): Buffer | undefined {
    if (!plainName(name) || !this.stillOurs()) return undefined;
    let fd: number;
    try {
      fd = openSync(this.at(name), constants.O_RDONLY | O_NOFOLLOW);
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

  remove(name: string): void {
    if (!plainName(name) || !this.stillOurs()) return;
    try {
      unlinkSync(this.at(name));
    } catch {
      // already gone
    }
  }

  subdir(name: string): string | null {
    if (!plainName(name) || !OWN_NAMES.some((re) => re.test(name)) || !this.isTagged() || !this.stillOurs())
      return null;
    try {
      mkdirSync(this.at(name), { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
    const sub = openChecked(join(this.path, name), false);
    if (sub === null) return null;
    sub.close();
    return sub.path;
  }

  /** Whether this directory is marked as ours (its tag written now when it holds nothing but our files). */
  private isTagged(): boolean {
    if (this.tagged !== undefined) return this.tagged;
    const tag = this.read(TAG_NAME);
    if (tag !== undefined && tag.subarray(0, CACHEDIR_SIGNATURE.length).toString('latin1') === CACHEDIR_SIGNATURE)
      return (this.tagged = true);
    let names: string[];
    try {
      names = readdirSync(this.at('.'));
    } catch {
      return (this.tagged = false);
    }
    // A damaged tag (not a regular private file with the signature) among nothing but our files is written again.
    if (!names.every((n) => n === TAG_NAME || OWN_NAMES.some((re) => re.test(n)))) return (this.tagged = false);
    return (this.tagged = this.writeFile(TAG_NAME, Buffer.from(TAG_TEXT, 'utf8'), TAG_NAME));
  }

  /** Writes `data` as `name` through a fresh temporary `.<stem>.<random>.tmp`. */
  private writeFile(name: string, data: Buffer, stem: string): boolean {
    cacheDirTestHooks.beforeCreate?.(this.path);
    if (!this.stillOurs()) return false;
    const tmp = `.${stem}.${randomHex()}.tmp`;
    let fd: number;
    try {
      fd = openSync(this.at(tmp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
    } catch {
      return false;
    }
    let ok = false;
    try {
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
      const mine = fstatSync(fd);
      cacheDirTestHooks.beforeRename?.(this.path, tmp);
      // The temporary must still be the file just written, in a directory that is still ours.
      if (this.stillOurs() && sameFile(lstatSync(this.at(tmp)), mine) && ownedAndPrivate(mine)) {
        renameSync(this.at(tmp), this.at(name));
        ok = true;
      }
    } catch {
      ok = false;
    } finally {
      closeSync(fd);
      if (!ok) {
        try {
          if (this.stillOurs()) unlinkSync(this.at(tmp));
        } catch {
          // nothing was left
        }
      }
    }
    return ok;
  }

  write(name: string, data: Buffer, prune: { readonly pattern: RegExp; readonly keep: number }): boolean {
    if (!plainName(name) || !prune.pattern.test(name) || !OWN_NAMES.some((re) => re.test(name))) return false;
    if (!this.isTagged()) return false;
    const ok = this.writeFile(name, data, name);
    if (ok) this.prune(prune.pattern, prune.keep);
    return ok;
  }

  /**
   * Removes the oldest files matching `pattern` beyond the `keep` most
   * recently modified, and temporaries a killed process left behind. Only in
   * a tagged directory; files another process removes meanwhile are no error.
   */
  private prune(pattern: RegExp, keep: number): void {
    let names: string[];
    try {
      names = readdirSync(this.at('.'));
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
        st = lstatSync(this.at(n));
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      if (entry) aged.push({ n, t: st.mtimeMs });
      else if (now - st.mtimeMs > STALE_TEMPORARY_MS && this.stillOurs()) {
        try {
          unlinkSync(this.at(n));
        } catch {
          // removed by another process
        }
      }
    }
    if (aged.length <= keep) return;
    aged.sort((a, b) => b.t - a.t);
    for (const { n } of aged.slice(keep)) this.remove(n);
  }
}

/**
 * The cache directory `dir`, opened and checked; with `create` it is made
 * (0700, tagged) when it does not exist yet. Null when it does not exist (and
 * `create` is false), may not be used (see the rules above) or cannot be
 * made. Open it once and keep it: every read and write goes through the
 * handle, and checks it again. Creating it only where a write follows keeps
 * a run that stores nothing from leaving a directory behind; the check is on
 * the handle opened after the creation, so a directory someone else made
 * meanwhile is refused.
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
  let fd: number;
  let real: string;
  try {
    real = realpathSync(abs);
    fd = openSync(real, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return null;
  }
  let keep = false;
  try {
    const st = fstatSync(fd);
    if (!st.isDirectory() || !ownedAndPrivate(st)) return null;
    // On Linux the handle is the directory from here on: its path through /proc, when it names the same directory.
    let viaFd: string | null = `/proc/self/fd/${fd}`;
    try {
      real = readlinkSync(viaFd);
      if (!sameFile(statSync(viaFd), st)) viaFd = null;
    } catch {
      viaFd = null;
    }
    if (!isAbsolute(real) || !safeAncestors(real)) return null;
    keep = true;
    return new OpenedCacheDir(real, fd, st, viaFd);
  } catch {
    return null;
  } finally {
    if (!keep) closeSync(fd);
  }
}
