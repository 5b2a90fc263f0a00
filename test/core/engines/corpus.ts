/**
 * Catalogs and queries for the engines' differential tests: the bundled
 * catalogs (the demo catalog and every other catalog fixture that loads),
 * with the labeled queries and words of their own names and descriptions,
 * and random catalogs built from a vocabulary that exercises what tokenizers
 * get wrong (camelCase, digits, punctuation, Unicode letters and case,
 * repeated terms, ties, names that are array indexes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import type { EngineTool } from '../../../src/core/engines/types.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Random queries per package (at least 5,000 in CI); TOOLSEARCH_DIFF_QUERIES overrides it. */
export const RANDOM_QUERIES = Number(process.env.TOOLSEARCH_DIFF_QUERIES ?? 5000);
/** The seed of the random catalogs; TOOLSEARCH_DIFF_SEED overrides it (a failure prints the seed). */
export const SEED = Number(process.env.TOOLSEARCH_DIFF_SEED ?? 20261204);

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Random {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Words: plain, camelCase pieces, digits, Unicode letters and case pairs, one-letter words. */
const WORDS = [
  'send',
  'message',
  'messages',
  'get',
  'list',
  'create',
  'issue',
  'issues',
  'file',
  'files',
  'read',
  'write',
  'search',
  'slack',
  'github',
  'channel',
  'user',
  'users',
  'page',
  'pages',
  'repo',
  'pull',
  'request',
  'comment',
  'a',
  'an',
  'to',
  'is',
  'of',
  'x',
  'v2',
  'v10',
  '12',
  '0',
  '007',
  'http',
  'HTTP',
  'URL',
  'url',
  'JSON',
  'json',
  'café',
  'straße',
  'STRASSE',
  'ΣΑΣ',
  'σας',
  'İstanbul',
  'istanbul',
  'ǅemal',
  'über',
  'naïve',
  '東京',
  'データ',
  'ﬁle',
  'Ⅻ',
  '²',
  '٣',
  'mañana',
  'ÀÉÎ',
  'ok',
  'OK',
  'Ok',
  'id',
  'ID',
  'Id',
  'sendMessage',
  'getURL',
  'HTMLParser',
  'v2Beta',
  'x2y',
  'camelCaseName',
  'ALLCAPS',
  'snake_case',
  'kebab-case',
  'dot.name',
  'e-mail',
  'email',
];

const NAME_SEPARATORS = ['_', '__', '-', '.', '', 'camel', ':', '/'];
const TEXT_SEPARATORS = [
  ' ',
  ' ',
  ' ',
  ', ',
  '. ',
  '-',
  '_',
  ' (',
  ') ',
  '! ',
  '? ',
  '; ',
  ': ',
  "'",
  '"',
  '\t',
  '\n',
  '\u00a0',
  '  ',
  '/',
  '+',
];

function camel(words: readonly string[]): string {
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

function randomName(r: Random): string {
  if (r.chance(0.03)) return String(r.int(40)); // an array index: JavaScript objects enumerate these first
  const n = 1 + r.int(4);
  const words = Array.from({ length: n }, () => r.pick(WORDS));
  const sep = r.pick(NAME_SEPARATORS);
  const joined = sep === 'camel' ? camel(words) : words.join(sep);
  return r.chance(0.3) ? `mcp__${r.pick(['slack', 'github', 'fs', 'Notion'])}__${joined}` : joined;
}

function randomText(r: Random, maxWords: number): string {
  const n = r.int(maxWords + 1);
  let s = '';
  for (let i = 0; i < n; i++) {
    // Repeats: a word again, as descriptions and queries often do.
    const w = i > 0 && r.chance(0.15) ? (s.split(' ').filter(Boolean).pop() ?? r.pick(WORDS)) : r.pick(WORDS);
    s += (i === 0 ? '' : r.pick(TEXT_SEPARATORS)) + (r.chance(0.1) ? w.toUpperCase() : w);
  }
  return s;
}

/** A random catalog: 1–40 tools, unique names, some shared descriptions (ties). */
export function randomCatalog(r: Random): EngineTool[] {
  const size = 1 + r.int(40);
  const seen = new Set<string>();
  const tools: EngineTool[] = [];
  const shared = randomText(r, 8);
  while (tools.length < size) {
    const name = randomName(r);
    // Names every stack can hold as an object key without surprises (no `__proto__`).
    if (seen.has(name) || name === '' || name === '__proto__') continue;
    seen.add(name);
    const description = r.chance(0.1) ? '' : r.chance(0.15) ? shared : randomText(r, 14);
    tools.push({ name, description });
  }
  return tools;
}

/** A random query: words of the vocabulary or of the catalog, with separators, case changes and repeats. */
export function randomQuery(r: Random, tools: readonly EngineTool[]): string {
  const n = 1 + r.int(4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    let w: string;
    if (tools.length > 0 && r.chance(0.5)) {
      const t = r.pick(tools);
      const source = r.chance(0.5) ? t.name : t.description;
      const pieces = source.split(/[\s_\-.,:/]+/).filter(Boolean);
      w = pieces.length > 0 ? r.pick(pieces) : r.pick(WORDS);
    } else w = r.pick(WORDS);
    if (r.chance(0.1)) w = w.toUpperCase();
    if (r.chance(0.1) && parts.length > 0) w = parts[parts.length - 1]!;
    parts.push(w);
  }
  return parts.map((p, i) => (i === 0 ? p : r.pick([' ', ' ', ' ', '-', '_', ', ', '.', '  ']) + p)).join('') || 'x';
}

/**
 * Every catalog fixture that loads (the bundled catalogs, the format fixtures, lint and hostile ones), by file;
 * a catalog whose tools another file already gave (the demo catalog in every format) once.
 */
export function fixtureCatalogs(): Array<{ file: string; tools: EngineTool[] }> {
  const dirs = ['fixtures/catalogs', 'fixtures/formats/catalogs', 'fixtures/lint', 'fixtures/hostile'];
  const out: Array<{ file: string; tools: EngineTool[] }> = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    // The demo catalog first: the other formats of it are the same tools.
    const names = readdirSync(path.join(ROOT, dir)).sort(
      (a, b) => Number(b === 'demo.yaml') - Number(a === 'demo.yaml') || (a < b ? -1 : 1),
    );
    for (const name of names) {
      if (!/\.(ya?ml|json)$/.test(name) || /suite|queries/.test(name)) continue;
      const file = path.join(dir, name);
      try {
        const catalog = loadCatalogFiles([path.join(ROOT, file)]);
        const tools = catalog.tools.filter((t) => !t.static).map((t) => ({ name: t.name, description: t.description }));
        const key = JSON.stringify(tools);
        if (tools.length === 0 || tools.some((t) => t.name === '__proto__') || seen.has(key)) continue;
        seen.add(key);
        out.push({ file, tools });
      } catch {
        // A fixture of a bad catalog (it exists to be refused).
      }
    }
  }
  return out;
}

/** The labeled queries' texts and requests (fixtures/eval/demo-queries.jsonl). */
export function labeledQueries(): string[] {
  const text = readFileSync(path.join(ROOT, 'fixtures/eval/demo-queries.jsonl'), 'utf8');
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const q = JSON.parse(line) as { query: string; request?: string };
    out.push(q.query);
    if (q.request) out.push(q.request);
  }
  return out;
}

/** Queries for a fixture catalog: the labeled queries, then words of its own names and descriptions. */
export function fixtureQueries(tools: readonly EngineTool[], r: Random, count: number): string[] {
  const out = labeledQueries();
  while (out.length < count) out.push(randomQuery(r, tools));
  return out;
}

/** Whether this Node runs a package that needs `major.minor`. */
export function nodeAtLeast(major: number, minor = 0): boolean {
  const [m, n] = process.versions.node.split('.').map(Number) as [number, number];
  return m > major || (m === major && n >= minor);
}
