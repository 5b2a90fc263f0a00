/**
 * Suite paths from the command line: files, directories (every `.yaml`,
 * `.yml` and `.json` file below, recursively), and globs for shells that do
 * not expand them (or quoted patterns), matched by tinyglobby (picomatch
 * syntax: `*`, `?`, `**`, `[dc]*.yaml`, `{demo,conversations}.yaml`). As in
 * shells, wildcards do not match a leading `.`; `**` does not descend into
 * dot directories or `node_modules`. Matches are sorted; duplicates are dropped.
 *
 * Walks are bounded: a glob does not follow symbolic links to directories
 * (tinyglobby's `followSymbolicLinks: false`) and goes at most
 * {@link MAX_WALK_DEPTH} levels deep; a directory argument is walked
 * following links, but a directory already on the way down (same device and
 * inode: `a/up -> ..`) is not entered again, with the same depth bound.
 */
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { InputError, quote } from './errors.js';
import { append } from '../core/append.js';

const SUITE_FILE = /\.(ya?ml|json)$/i;

/** Deepest directory level a glob or a directory walk visits. */
export const MAX_WALK_DEPTH = 64;

/** Whether an argument holds glob syntax (`*`, `?`, `[…]`, `{…}`). */
export function isGlob(arg: string): boolean {
  return /[*?[{]/.test(arg);
}

/** Every file matching a glob pattern, sorted (paths as the pattern is written: relative, or absolute). */
export function globFiles(pattern: string): string[] {
  const p = process.platform === 'win32' ? pattern.replace(/\\/g, '/') : pattern;
  const absolute = p.startsWith('/');
  const files = globSync(p, {
    cwd: absolute ? '/' : process.cwd(),
    absolute,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
    deep: MAX_WALK_DEPTH,
    expandDirectories: false,
    ignore: ['**/node_modules/**'],
  });
  return [...new Set(files.map((f) => (f.startsWith('./') ? f.slice(2) : f)))].sort();
}

function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/**
 * Suite files below `dir`, following links, skipping dot entries and node_modules, never entering a directory twice on
 * one path.
 */
function suiteFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number, ancestors: ReadonlySet<string>): void => {
    if (depth > MAX_WALK_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(d, name);
      const st = statOrNull(p);
      if (st === null) continue;
      if (st.isDirectory()) {
        const id = `${st.dev}:${st.ino}`;
        if (ancestors.has(id)) continue; // a loop: `up -> ..`
        walk(p, depth + 1, new Set([...ancestors, id]));
      } else if (st.isFile() && SUITE_FILE.test(name)) {
        out.push(p);
      }
    }
  };
  const root = statOrNull(dir);
  if (root !== null) walk(dir, 1, new Set([`${root.dev}:${root.ino}`]));
  return [...new Set(out)].sort();
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
