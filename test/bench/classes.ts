/**
 * Query classes for tail latency (issue 16): the shapes of query that make a
 * keyword search slow — very short keywords that occur in almost every tool,
 * stop words, keywords that match every tool, long queries, many required
 * keywords, non-ASCII text — next to the easy ones (common and rare words).
 * Built from the catalog's own vocabulary with a seeded PRNG, so every run
 * measures the same queries.
 */
import { goToLower } from '../../src/core/text.js';
import type { ToolInfo } from '../../src/core/types.js';
import { Rng } from './generate.js';

export const QUERY_CLASSES = [
  'one letter',
  'two letters',
  'stop words',
  'common words',
  'rare words',
  'all-match',
  '10+ keywords',
  'many +required',
  'non-ASCII',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export interface ClassQuery {
  readonly cls: QueryClass;
  readonly query: string;
  readonly maxResults: number | null;
  /** Raw tool_search arguments JSON. */
  readonly args: string;
}

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789', '_', '-', '.'];
const BIGRAMS = [
  'an',
  'io',
  'er',
  'in',
  'at',
  'on',
  're',
  'te',
  'es',
  'st',
  'db',
  'pr',
  's3',
  'id',
  'ai',
  'ci',
  'to',
  'of',
  'ss',
  'e_',
  '_c',
  'qz',
];
const STOP_WORDS = [
  'the',
  'for',
  'and',
  'with',
  'from',
  'to',
  'of',
  'in',
  'a',
  'an',
  'is',
  'on',
  'by',
  'or',
  'this',
  'that',
  'all',
  'it',
  'as',
  'be',
  'at',
  'use',
  'new',
];
const NON_ASCII = [
  'İstanbul',
  'istanbul',
  'ΣΊΣΥΦΟΣ',
  'σίσυφος',
  'σ',
  'ς',
  'Σ',
  '検索',
  '検',
  '索',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '𝔘',
  'é',
  'É',
  'café',
  'ZÜRICH',
  'zürich',
  'ß',
  'Straße',
  'STRASSE',
  'ſ',
  '\u212a',
  'k',
  'ﬁle',
  '🚀',
  'ı',
  'İ',
  'ü',
  'ö',
  'ä',
  'Ω',
  'ω',
  'Ä',
  '日本',
  'données',
  'año',
];
const MAX_RESULTS: ReadonlyArray<number | null> = [null, null, null, 1, 3, 10, 20];

/** Lower-cased a–z0–9 words of a text, each once. */
function wordsOf(text: string): Set<string> {
  return new Set(
    goToLower(text)
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3),
  );
}

/** Catalog words by how many tools hold them (name or description), most first. */
function documentFrequencies(tools: readonly ToolInfo[]): Array<[string, number]> {
  const df = new Map<string, number>();
  for (const t of tools)
    for (const w of wordsOf(`${t.name.replace(/_/g, ' ')} ${t.description}`)) df.set(w, (df.get(w) ?? 0) + 1);
  return [...df].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Substrings (one code unit) present in every tool's lower-cased name or description. */
function everywhere(tools: readonly ToolInfo[]): string[] {
  let common: string[] | null = null;
  for (const t of tools) {
    const here = new Set(goToLower(`${t.name}\n${t.description}`));
    common = common === null ? [...here] : common.filter((c) => here.has(c));
  }
  return (common ?? []).filter((c) => c.trim() !== '').sort();
}

/** `perClass` queries of every class, in class order. */
export function generateClassQueries(tools: readonly ToolInfo[], perClass: number, seed = 1): ClassQuery[] {
  const r = new Rng(seed * 7919 + tools.length);
  const df = documentFrequencies(tools);
  const common = df
    .filter(([w]) => !STOP_WORDS.includes(w))
    .slice(0, 60)
    .map(([w]) => w);
  const rare = df.filter(([, n]) => n <= 3).map(([w]) => w);
  const rareOrMiss = (): string => (r.chance(0.8) && rare.length > 0 ? r.pick(rare) : `${r.pick(common)}zq`);
  const all = everywhere(tools);
  const caps = (w: string): string =>
    r.chance(0.2) ? w.toUpperCase() : r.chance(0.2) ? w.charAt(0).toUpperCase() + w.slice(1) : w;
  const n = (lo: number, hi: number, pick: () => string): string =>
    Array.from({ length: r.int(lo, hi) }, pick).join(' ');
  const make: Record<QueryClass, () => string> = {
    'one letter': () => caps(r.pick(LETTERS)),
    'two letters': () => caps(r.pick(BIGRAMS)),
    'stop words': () => (r.chance(0.6) ? r.pick(STOP_WORDS) : n(2, 4, () => r.pick(STOP_WORDS))),
    'common words': () => n(1, 3, () => r.pickSkewed(common)),
    'rare words': () => n(1, 3, rareOrMiss),
    // Every tool scores: a character every tool holds, alone, twice, required or with a common word.
    'all-match': () => {
      const c = all.length > 0 ? r.pick(all) : 'e';
      return r.pick([
        c,
        `${c} ${r.pick(all.length > 0 ? all : ['a'])}`,
        `+${c}`,
        `${c} ${r.pickSkewed(common)}`,
        `${c} ${c}`,
      ]);
    },
    '10+ keywords': () =>
      n(10, 16, () => {
        const u = r.next();
        return u < 0.45
          ? caps(r.pickSkewed(common))
          : u < 0.75
            ? r.pick(STOP_WORDS)
            : u < 0.9
              ? rareOrMiss()
              : r.pick([...LETTERS, ...BIGRAMS]);
      }),
    'many +required': () =>
      n(3, 8, () => {
        const u = r.next();
        const w =
          u < 0.5
            ? r.pickSkewed(common)
            : u < 0.7
              ? r.pick(LETTERS.slice(0, 26))
              : u < 0.85
                ? r.pick(STOP_WORDS)
                : r.pick(BIGRAMS);
        return r.chance(0.85) ? `+${w}` : w;
      }),
    'non-ASCII': () =>
      r.chance(0.7)
        ? r.pick(NON_ASCII)
        : `${r.pick(NON_ASCII)} ${r.chance(0.5) ? r.pick(NON_ASCII) : r.pickSkewed(common)}`,
  };
  const out: ClassQuery[] = [];
  for (const cls of QUERY_CLASSES) {
    for (let i = 0; i < perClass; i++) {
      const query = make[cls]();
      const maxResults = r.pick(MAX_RESULTS);
      out.push({
        cls,
        query,
        maxResults,
        args: maxResults === null ? JSON.stringify({ query }) : JSON.stringify({ query, max_results: maxResults }),
      });
    }
  }
  return out;
}
