/**
 * Suite paths from the command line: files, directories (every `.yaml`,
 * `.yml` and `.json` file below, recursively), and globs for shells that do
 * not expand them (or quoted patterns): `*` and `?` match within one path
 * segment, `**` matches any number of segments. As in shells, wildcards do
 * not match a leading `.`; `**` does not descend into dot directories or
 * `node_modules`. Matches are sorted; duplicates are dropped.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';

const SUITE_FILE = /\.(ya?ml|json)$/i;

/** Whether an argument holds a wildcard. */
export function isGlob(arg: string): boolean {
  return /[*?]/.test(arg);
}

function segmentRegex(seg: string): RegExp {
  let re = '';
  for (const ch of seg) {
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A wildcard never matches a leading dot.
  const lead = seg.startsWith('*') || seg.startsWith('?') ? '(?!\\.)' : '';
  return new RegExp(`^${lead}${re}$`);
}

function listDir(dir: string): Array<{ name: string; dir: boolean }> {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((d) => {
      let isDir = d.isDirectory();
      if (d.isSymbolicLink()) {
        try {
          isDir = statSync(join(dir, d.name)).isDirectory();
        } catch {
          isDir = false;
        }
      }
      return { name: d.name, dir: isDir };
    });
  } catch {
    return [];
  }
}

/** Paths under `base` matching the remaining pattern segments. */
function walk(base: string, segs: readonly string[], out: string[], depth = 0): void {
  if (depth > 64) return;
  if (segs.length === 0) return;
  const [seg, ...rest] = segs as [string, ...string[]];
  if (seg === '**') {
    // Zero segments…
    walk(base, rest, out, depth + 1);
    // …or one more directory, keeping the `**`.
    for (const e of listDir(base || '.')) {
      if (!e.dir || e.name.startsWith('.') || e.name === 'node_modules') continue;
      walk(join(base, e.name), segs, out, depth + 1);
    }
    if (rest.length === 0) {
      for (const e of listDir(base || '.')) if (!e.dir && !e.name.startsWith('.')) out.push(join(base, e.name));
    }
    return;
  }
  if (!isGlob(seg)) {
    const p = base === '' ? seg : join(base, seg);
    if (rest.length === 0) {
      try {
        if (statSync(p).isFile()) out.push(p);
      } catch {
        // no such file: no match
      }
    } else {
      walk(p, rest, out, depth + 1);
    }
    return;
  }
  const re = segmentRegex(seg);
  for (const e of listDir(base || '.')) {
    if (!re.test(e.name)) continue;
    const p = base === '' ? e.name : join(base, e.name);
    if (rest.length === 0) {
      if (!e.dir) out.push(p);
    } else if (e.dir) {
      walk(p, rest, out, depth + 1);
    }
  }
}

/** Every file matching a glob pattern, sorted. */
export function globFiles(pattern: string): string[] {
  const p = process.platform === 'win32' ? pattern.replace(/\\/g, '/') : pattern;
  const absolute = p.startsWith('/');
  const segs = p.split('/').filter((s, i) => s !== '' || i === 0);
  const out: string[] = [];
  if (absolute) walk('/', segs.slice(1), out);
  else walk('', segs.filter((s) => s !== '.' && s !== ''), out);
  return [...new Set(out)].sort();
}

function suiteFilesIn(dir: string): string[] {
  const out: string[] = [];
  walk(dir, ['**', '*'], out);
  return [...new Set(out.filter((f) => SUITE_FILE.test(f)))].sort();
}

/**
 * Expands the suite arguments, in order. A glob matching nothing and a
 * directory holding no suite file are errors (exit 2); a plain path is kept
 * as it is (a missing file is reported when it is read).
 */
export function expandSuitePaths(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (isGlob(arg)) {
      const files = globFiles(arg);
      if (files.length === 0) throw new InputError(`no file matches the pattern ${JSON.stringify(arg)}`);
      out.push(...files);
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(arg).isDirectory();
    } catch {
      isDir = false;
    }
    if (isDir) {
      const files = suiteFilesIn(arg);
      if (files.length === 0) throw new InputError(`no suite files (.yaml, .yml, .json) in the directory ${JSON.stringify(arg)}`);
      out.push(...files);
    } else {
      out.push(arg);
    }
  }
  return [...new Set(out)];
}
