/**
 * Okapi BM25 over each tool's name words and description words, like the
 * BM25 variant of Anthropic's tool search (which ranks tools for natural
 * language queries). Parameters are the usual ones:
 *
 *   score(D, Q) = Σ_{t ∈ Q} IDF(t) · f(t, D) · (k1 + 1) / (f(t, D) + k1 · (1 − b + b · |D| / avgdl))
 *   IDF(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))          (always positive)
 *
 * with k1 = 1.2 and b = 0.75. A document is the words of the name
 * ({@link nameWords}: its name parts, also split at hyphens and other
 * separators) followed by the words of the description ({@link textWords}):
 * `mcp__github__createIssue` gives `mcp github create issue`. Query words are
 * the query's {@link textWords}; a word repeated in the query counts each
 * time (as in the standard formula). No stemming, no stop words (IDF already weighs
 * common words down). Ties keep catalog order; tools scoring 0 are dropped.
 */
import type { ToolInfo } from '../../../core/index.js';
import { nameWords, textWords } from '../words.js';
import type { Scorer } from './types.js';

/** BM25 parameters. */
export const BM25_PARAMS = { k1: 1.2, b: 0.75 } as const;

/** IDF of a term found in `df` of `n` documents (the "+1" form, never negative). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The contribution of one query term to one document's score. */
export function bm25Term(
  idf: number,
  f: number,
  docLength: number,
  avgdl: number,
  params: { k1: number; b: number } = BM25_PARAMS,
): number {
  const { k1, b } = params;
  return (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * docLength) / avgdl));
}

/** The BM25 scorer, which can also give the raw scores of a query (for tests and reports). */
export interface Bm25Scorer extends Scorer {
  /** Score of every tool with a positive score, by name. */
  scores(query: string): Map<string, number>;
}

export function createBm25Scorer(
  tools: readonly ToolInfo[],
  params: { k1: number; b: number } = BM25_PARAMS,
): Bm25Scorer {
  const { k1, b } = params;
  const n = tools.length;
  const lengths: number[] = [];
  // term → postings: [document, term frequency]
  const postings = new Map<string, Array<[number, number]>>();
  tools.forEach((tool, doc) => {
    const terms = [...nameWords(tool.name), ...textWords(tool.description)];
    lengths.push(terms.length);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, f] of tf) {
      let list = postings.get(t);
      if (!list) postings.set(t, (list = []));
      list.push([doc, f]);
    }
  });
  const avgdl = n === 0 ? 0 : lengths.reduce((a, l) => a + l, 0) / n;

  const score = (query: string): { scores: Float64Array; touched: number[] } => {
    const scores = new Float64Array(n);
    const touched: number[] = [];
    for (const term of textWords(query)) {
      const list = postings.get(term);
      if (!list) continue;
      const idf = bm25Idf(n, list.length);
      for (const [doc, f] of list) {
        if (scores[doc] === 0) touched.push(doc);
        scores[doc]! += bm25Term(idf, f, lengths[doc]!, avgdl, params);
      }
    }
    return { scores, touched };
  };

  return {
    name: 'bm25',
    summary: `Okapi BM25 (k1=${k1}, b=${b}) over name words and description words`,
    scores(query) {
      const { scores, touched } = score(query);
      return new Map(touched.filter((d) => scores[d]! > 0).map((d) => [tools[d]!.name, scores[d]!]));
    },
    rank(query, limit) {
      const { scores, touched } = score(query);
      return touched
        .filter((d) => scores[d]! > 0)
        .sort((x, y) => scores[y]! - scores[x]! || x - y)
        .slice(0, limit)
        .map((d) => tools[d]!.name);
    },
  };
}
