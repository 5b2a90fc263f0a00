/**
 * fuse.js as a fuzzy-search baseline, over each tool's name and description.
 * fuse.js is loaded lazily (only `eval` needs it).
 *
 * Options (see {@link FUSE_OPTIONS}), chosen for tool search on principle
 * and never tuned against the labeled queries:
 * - `useTokenSearch: true` — the query is split into words, each fuzzy-matched
 *   on its own and weighted by inverse document frequency; a tool matching
 *   any word is a candidate (`tokenMatch: 'any'`, the default). Plain Fuse
 *   treats a multi-word query as one pattern, which suits single words only.
 * - keys `name` (weight 2) and `description` (weight 1): a hit in the name
 *   counts more, as in the reference. The name is given to Fuse as its words
 *   (`mcp__github__create_issue` → `mcp github create issue`) so that it
 *   tokenizes like a sentence.
 * - `threshold: 0.3` — about one typo in a four-to-six letter word (Fuse's
 *   default 0.6 lets two-letter words match almost anything).
 * - `ignoreLocation: true` — a word may sit anywhere in a long description.
 * - `minMatchCharLength: 2`, `isCaseSensitive: false`, `ignoreDiacritics: true`.
 * Ties keep catalog order (Fuse sorts stably by score).
 *
 * A query longer than {@link FUSE_MAX_QUERY} characters is not searched: Fuse matches each of its words against
 * every tool, so its time grows as the query's length times the tools (a 200 KB query took 66 s on the demo
 * catalog; issue 27, finding 10). It ranks nothing and is reported as a query the scorer rejects, as an invalid
 * pattern is for `regex`; a model's tool_search query is far shorter.
 */
import type { ToolInfo } from '../../../core/index.js';
import { nameWords } from '../words.js';
import type { Scorer } from './types.js';

interface FuseItem {
  readonly name: string;
  readonly nameWords: string;
  readonly description: string;
}

/** The documented Fuse options (keys excluded: they are built with the items). */
export const FUSE_OPTIONS = {
  useTokenSearch: true,
  threshold: 0.3,
  ignoreLocation: true,
  minMatchCharLength: 2,
  isCaseSensitive: false,
  ignoreDiacritics: true,
  includeScore: true,
  shouldSort: true,
} as const;

/** Longest query the baseline searches, in UTF-16 code units (about 0.3 s on the demo catalog). */
export const FUSE_MAX_QUERY = 1000;

/** Key weights: name words count twice as much as description words. */
export const FUSE_KEYS = [
  { name: 'name', weight: 2 },
  { name: 'description', weight: 1 },
] as const;

export async function createFuseScorer(tools: readonly ToolInfo[]): Promise<Scorer> {
  const { default: Fuse } = await import('fuse.js');
  const items: FuseItem[] = tools.map((t) => ({
    name: t.name,
    nameWords: nameWords(t.name).join(' '),
    description: t.description,
  }));
  const fuse = new Fuse(items, {
    ...FUSE_OPTIONS,
    keys: [
      { name: 'name', weight: FUSE_KEYS[0].weight, getFn: (item: FuseItem) => item.nameWords },
      { name: 'description', weight: FUSE_KEYS[1].weight },
    ],
  });
  return {
    name: 'fuse',
    summary:
      'fuse.js token search (threshold 0.3, ignoreLocation) over name words (weight 2) and description (weight 1)',
    rank(query, limit) {
      if (query.trim() === '' || query.length > FUSE_MAX_QUERY) return [];
      return fuse.search(query, { limit }).map((r) => r.item.name);
    },
    rejects(query) {
      return query.length > FUSE_MAX_QUERY
        ? `a query of ${query.length} characters: the fuse.js baseline searches at most ${FUSE_MAX_QUERY} (its time ` +
            'grows as the length times the tools)'
        : null;
    },
  };
}
