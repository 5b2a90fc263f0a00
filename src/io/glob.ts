/**
 * Paths from the command line: files, directories (every suite or recording below, recursively), and globs for
 * shells that do not expand them (or quoted patterns), matched by picomatch (the matcher of tinyglobby: `*`, `?`,
 * `**`, `[dc]*.yaml`, `{demo,conversations}.yaml`). As in shells, wildcards do not match a leading `.`; `**` does
 * not descend into dot directories or `node_modules`. Matches are sorted; duplicates are dropped. An existing path
 * is itself, whatever characters its name holds (`run[1].json`).
 *
 * Walks (of a directory, or below a glob's fixed part) follow symbolic links, to files and to directories (issue
 * 27, finding 9: they were skipped without being counted), and are bounded: each directory is entered once,
 * whichever link leads to it (`a/up -> ..` ends; so do links that fan out), a file reached by two paths is listed
 * once (its first path in sorted order), and at most {@link MAX_WALK_DEPTH} levels are visited. A link that leads
 * nowhere is listed when its name fits, so that reading it reports it.
 */
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { InputError, quote } from './errors.js';
import { append } from '../core/append.js';

const SUITE_FILE = /\.(ya?ml|json)$/i;

/** Deepest directory level a glob or a directory walk visits. */
export const MAX_WALK_DEPTH = 64;

/** Whether an argument holds glob syntax (`*`, `?`, `[…]`, `{…}`). */
export function isGlob(arg: string): boolean {
  return /[*?[{]/.test(arg);
}

function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Files below `dir` (paths `join(dir, rel)`) whose path relative to it `keep` accepts, in sorted order, following
 * links (see the module comment). Dot directories and `node_modules` are not entered; dot files are offered to
 * `keep` only when `dotFiles`.
 */
export function walkFiles(
  dir: string,
  keep: (rel: string) => boolean,
  options: { readonly depth?: number; readonly dotFiles?: boolean } = {},
): string[] {
  const maxDepth = Math.min(options.depth ?? MAX_WALK_DEPTH, MAX_WALK_DEPTH);
  const out: string[] = [];
  const dirs = new Set<string>();
  const files = new Set<string>();
  const root = statOrNull(dir === '' ? '.' : dir);
  if (root === null || !root.isDirectory()) return out;
  dirs.add(`${root.dev}:${root.ino}`);
  // Depth first, names sorted: the first path to a file or a directory is the one sorted first.
  const walk = (d: string, rel: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(d === '' ? '.' : d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = d === '' ? name : join(d, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = statOrNull(p);
      if (st?.isDirectory()) {
        if (name.startsWith('.') || name === 'node_modules' || depth >= maxDepth) continue;
        const id = `${st.dev}:${st.ino}`;
        if (dirs.has(id)) continue;
        dirs.add(id);
        walk(p, r, depth + 1);
        continue;
      }
      if (name.startsWith('.') && options.dotFiles !== true) continue;
      if (st !== null && !st.isFile()) continue;
      if (!keep(r)) continue;
      // A link that leads nowhere (st null) is kept: reading it says so.
      const real = st === null ? p : realOrSelf(p);
      if (files.has(real)) continue;
      files.add(real);
      out.push(p);
    }
  };
  walk(dir, '', 1);
  return out.sort();
}

/** Every file matching a glob pattern, sorted (paths as the pattern is written: relative, or absolute). */
export function globFiles(pattern: string): string[] {
  const p = process.platform === 'win32' ? pattern.replace(/\\/g, '/') : pattern;
  const scan = picomatch.scan(p);
  const base = scan.base;
  const glob = scan.glob;
  const match = picomatch(glob, { dot: false });
  // Without `**`, a pattern matches at as many levels as it has parts: no deeper walk.
  const depth = glob.includes('**') ? MAX_WALK_DEPTH : glob.split('/').length;
  const files = walkFiles(base === '' ? '' : base, match, { depth, dotFiles: true });
  return [...new Set(files.map((f) => (f.startsWith('./') ? f.slice(2) : f)))].sort();
}

/** Suite files below `dir` (see {@link walkFiles}). */
function suiteFilesIn(dir: string): string[] {
  return walkFiles(dir, (rel) => SUITE_FILE.test(rel));
}

/**
 * Expands the suite arguments, in order. A glob matching nothing and a
 * directory holding no suite file are errors (exit 2); a plain path is kept
 * as it is (a missing file is reported when it is read), and so is an
 * existing file whose name holds glob characters.
 */
export function expandSuitePaths(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    const st = statOrNull(arg);
    if (st === null && isGlob(arg)) {
      const files = globFiles(arg);
      if (files.length === 0) throw new InputError(`no file matches the pattern ${quote(arg)}`);
      append(out, files);
    } else if (st?.isDirectory()) {
      const files = suiteFilesIn(arg);
      if (files.length === 0)
        throw new InputError(`no suite files (.yaml, .yml, .json) in the directory ${quote(arg)}`);
      append(out, files);
    } else {
      out.push(arg);
    }
  }
  return [...new Set(out)];
}
