/**
 * The tool search of Mastra, ported: `ToolSearchProcessor` (package
 * `@mastra/core` 1.71.0, `dist/agent-*.js`, region
 * `src/processors/processors/tool-search.ts`) and the `BM25Index` and
 * `tokenize` it builds on (`dist/workspace-skills-*.js`, region
 * `src/workspace/search/bm25.ts`).
 *
 * - Tokens: the text lower-cased (`toLowerCase`), split on white space and
 *   `- _ . , ; : ! ? ( ) [ ] { } ' "`, tokens shorter than 2 UTF-16 units
 *   dropped; no camelCase split, no stop words ({@link mastraTokenize}).
 * - Each tool is one BM25 document, `"<name> <description>"` (k1 1.5, b 0.75,
 *   IDF `ln((N − df + 0.5) / (df + 0.5) + 1)`); a query term repeated counts
 *   again. The best `topK × 2` documents then get a name boost per query
 *   term: +5 when the lower-cased name equals the term, else +2 when it
 *   contains it. Sorted again (stable), results scoring `<= minScore` are
 *   dropped and the first `topK` kept. Ties keep the order in which the
 *   documents first scored: by the first query term that matches them, then
 *   by catalog order (JavaScript key order, {@link objectKeyOrder}).
 * - The result is `{ results: [{ name, description, score }], message }`,
 *   descriptions cut to 147 UTF-16 units plus `...` beyond 150, scores
 *   rounded to 2 decimals.
 * - `search_tools` loads nothing (unless `autoLoad`); `load_tool({ toolName |
 *   toolNames })` loads, visible from the next step; the in-memory store keeps
 *   a thread's loaded tools until `ttl` ms (default one hour) pass without an
 *   access (each step reads them), checked every `max(ttl / 2, 60 s)`.
 */
import {
  objectKeyOrder,
  type EngineHit,
  type EngineOutcome,
  type EngineTool,
  type SearchEngine,
  type TermScore,
} from './types.js';

/** `search.topK` and `search.minScore` defaults, and the store's `ttl` default (ms). */
export const MASTRA_DEFAULTS = { topK: 5, minScore: 0, ttl: 3_600_000, autoLoad: false } as const;

/** The BM25 parameters of `BM25Index` (its defaults; the processor passes none). */
export const MASTRA_BM25 = { k1: 1.5, b: 0.75 } as const;

const SPLIT = /[\s\-_.,;:!?()[\]{}'"]+/;

/** `tokenize(text, TOOL_SEARCH_TOKENIZE_OPTIONS)`: lower-case, split, drop tokens shorter than 2. */
export function mastraTokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(SPLIT)
    .filter((token) => token.length >= 2);
}

/** The query terms the name boost uses (the same split, `t.length > 1`). */
function boostTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[\s\-_.,;:!?()[\]{}'"]+/)
    .filter((t) => t.length > 1);
}

/** Options of {@link createMastraEngine}. */
export interface MastraOptions {
  readonly topK?: number;
  readonly minScore?: number;
  /** `search.autoLoad`: a search loads what it finds (no `load_tool`). */
  readonly autoLoad?: boolean;
}

interface Doc {
  readonly id: string;
  readonly description: string;
  readonly termFrequencies: Map<string, number>;
  readonly length: number;
}

/** `BM25Index` as the processor builds it: one document per tool, added in the tools object's order. */
class Bm25 {
  private readonly docs = new Map<string, Doc>();
  private readonly inverted = new Map<string, Set<string>>();
  private readonly df = new Map<string, number>();
  private readonly avgDocLength: number;

  constructor(tools: readonly EngineTool[]) {
    for (const t of tools) {
      const tokens = mastraTokenize(`${t.name} ${t.description}`);
      const termFrequencies = new Map<string, number>();
      for (const token of tokens) termFrequencies.set(token, (termFrequencies.get(token) || 0) + 1);
      this.docs.set(t.name, { id: t.name, description: t.description, termFrequencies, length: tokens.length });
      for (const term of termFrequencies.keys()) {
        let set = this.inverted.get(term);
        if (!set) this.inverted.set(term, (set = new Set()));
        set.add(t.name);
        this.df.set(term, (this.df.get(term) || 0) + 1);
      }
    }
    let total = 0;
    for (const d of this.docs.values()) total += d.length;
    this.avgDocLength = this.docs.size === 0 ? 0 : total / this.docs.size;
  }

  get size(): number {
    return this.docs.size;
  }

  description(id: string): string | undefined {
    return this.docs.get(id)?.description;
  }

  private idf(df: number): number {
    return Math.log((this.docs.size - df + 0.5) / (df + 0.5) + 1);
  }

  private termScore(tf: number, docLength: number, idf: number): number {
    const { k1, b } = MASTRA_BM25;
    return idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * (docLength / this.avgDocLength))));
  }

  /** `search(query, topK, 0)`: every document a query token reaches, scored, best first, the first `topK`. */
  search(query: string, topK: number): EngineHit[] {
    const queryTokens = mastraTokenize(query);
    if (queryTokens.length === 0 || this.docs.size === 0) return [];
    const scores = new Map<string, number>();
    for (const term of queryTokens) {
      const ids = this.inverted.get(term);
      if (!ids) continue;
      const idf = this.idf(this.df.get(term) || 0);
      for (const id of ids) {
        const doc = this.docs.get(id)!;
        const tf = doc.termFrequencies.get(term) || 0;
        scores.set(id, (scores.get(id) || 0) + this.termScore(tf, doc.length, idf));
      }
    }
    const results: EngineHit[] = [];
    for (const [id, score] of scores.entries()) if (score >= 0) results.push({ name: id, score });
    results.sort((a, b) => b.score - a.score);
    return results.slice(0, topK);
  }

  /** Per query token (repeats included), its BM25 contribution to one document. */
  contributions(query: string, id: string): TermScore[] {
    const doc = this.docs.get(id);
    if (!doc) return [];
    return mastraTokenize(query).map((term) => {
      const tf = doc.termFrequencies.get(term) || 0;
      if (tf === 0) return { term, rule: 'none', points: 0 };
      return { term, rule: 'bm25', points: this.termScore(tf, doc.length, this.idf(this.df.get(term) || 0)) };
    });
  }
}

/** Mastra's description cut: 147 UTF-16 units and `...` when longer than 150. */
export function mastraShortDescription(description: string): string {
  return description.length > 150 ? `${description.slice(0, 147)}...` : description;
}

/** One `search_tools` result entry. */
export interface MastraResult {
  readonly name: string;
  readonly description: string;
  readonly score: number;
}

/** `search_tools`' output. */
export interface MastraSearchOutput {
  readonly results: readonly MastraResult[];
  readonly message: string;
}

/** The Mastra engine, with the processor's `load_tool` on top of the common interface. */
export interface MastraEngine extends SearchEngine {
  readonly id: 'mastra';
  readonly topK: number;
  readonly minScore: number;
  readonly autoLoad: boolean;
  /** `search_tools`' output for a query (`newlyLoaded`: with autoLoad, the message's "already loaded" note). */
  searchOutput(query: string, loaded?: ReadonlySet<string>): MastraSearchOutput;
  /** `load_tool`'s execute: its output and the names it loaded. */
  loadTool(input: MastraLoadInput, loaded: ReadonlySet<string>): { output: MastraLoadOutput; loaded: string[] };
  has(name: string): boolean;
}

/** `load_tool`'s input. */
export interface MastraLoadInput {
  readonly toolName?: string;
  readonly toolNames?: readonly string[];
}

/** `load_tool`'s output (keys in the package's order; absent keys are left out as JSON drops `undefined`). */
export interface MastraLoadOutput {
  readonly success: boolean;
  readonly message: string;
  readonly loadedCount?: number;
  readonly toolName?: string;
  readonly loaded?: readonly string[];
  readonly notFound?: readonly string[];
  readonly alreadyLoaded?: readonly string[];
}

/** The Mastra search over the searchable tools of a catalog (given in catalog order). */
export function createMastraEngine(tools: readonly EngineTool[], options: MastraOptions = {}): MastraEngine {
  const topK = options.topK ?? MASTRA_DEFAULTS.topK;
  const minScore = options.minScore ?? MASTRA_DEFAULTS.minScore;
  const autoLoad = options.autoLoad ?? MASTRA_DEFAULTS.autoLoad;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const ordered = objectKeyOrder(tools.map((t) => t.name)).map((n) => byName.get(n)!);
  const index = new Bm25(ordered);
  const keys = ordered.map((t) => t.name);

  /** `searchTools`, with the candidate and result limits as parameters. */
  const searchTools = (query: string, k: number, min: number): Array<EngineHit & { description: string }> => {
    if (index.size === 0) return [];
    const bm25 = index.search(query, k * 2);
    if (bm25.length === 0) return [];
    const terms = boostTerms(query);
    const boosted = bm25.map((r) => {
      let score = r.score;
      const nameLower = r.name.toLowerCase();
      for (const term of terms) {
        if (nameLower === term) score += 5;
        else if (nameLower.includes(term)) score += 2;
      }
      return { name: r.name, score };
    });
    const out: EngineHit[] = [];
    for (const r of boosted.sort((a, b) => b.score - a.score)) {
      if (r.score <= min) continue;
      out.push(r);
      if (out.length >= k) break;
    }
    return out.slice(0, k).map((r) => ({ ...r, description: index.description(r.name) || '' }));
  };

  const outcome = (query: string, k: number): EngineOutcome => {
    const hits = searchTools(query, k, minScore);
    return {
      ok: true,
      matches: hits.map((h) => h.name),
      scores: hits.map((h) => Math.round(h.score * 100) / 100),
      result: output(query, hits),
      total: searchTools(query, index.size, minScore).length,
      limit: k,
    };
  };

  const output = (query: string, hits: ReadonlyArray<EngineHit & { description: string }>): MastraSearchOutput => {
    const results = hits.map((r) => ({
      name: r.name,
      description: mastraShortDescription(r.description),
      score: Math.round(r.score * 100) / 100,
    }));
    if (results.length === 0)
      return { results: [], message: `No tools found matching "${query}". Try different keywords.` };
    return {
      results,
      message:
        `Found ${results.length} tool(s). ` +
        'Use load_tool with an exact toolName or a toolNames array to make them available.',
    };
  };

  return {
    id: 'mastra',
    loading: {
      resultShape: 'results',
      loadsBy: autoLoad ? 'search' : 'load_tool',
      visibleFrom: 'next-call',
      keeps: 'ttl',
      directSelection: autoLoad ? null : 'load_tool',
    },
    limit: topK,
    topK,
    minScore,
    autoLoad,
    summary:
      `Mastra's ToolSearchProcessor (BM25 k1 1.5, b 0.75 over "name description", name boost +5/+2; ` +
      `topK ${topK}, minScore ${minScore})`,
    search: (query) => outcome(query, topK),
    searchWithLimit: outcome,
    // Every tool the query reaches, boosted, in result order: searchTools with topK = the catalog.
    rankAll: (query) => searchTools(query, index.size, minScore).map((h) => ({ name: h.name, score: h.score })),
    explain(query, name) {
      if (!byName.has(name)) return [];
      const nameLower = name.toLowerCase();
      const boosts = boostTerms(query).map((term): TermScore => {
        if (nameLower === term) return { term, rule: 'name-equal', points: 5 };
        if (nameLower.includes(term)) return { term, rule: 'name-substring', points: 2 };
        return { term, rule: 'none', points: 0 };
      });
      return [...index.contributions(query, name), ...boosts.filter((b) => b.points > 0)];
    },
    nameTokens: (name) => mastraTokenize(name),
    searchOutput(query, loaded = new Set()) {
      const hits = searchTools(query, topK, minScore);
      const base = output(query, hits);
      if (!autoLoad || hits.length === 0) return base;
      const names = base.results.map((r) => r.name);
      const newly = names.filter((n) => !loaded.has(n));
      return {
        results: base.results,
        message:
          `Found and loaded ${names.length} tool(s): ${names.join(', ')}. They are available on your next turn — ` +
          `call them directly.${newly.length < names.length ? ' Some were already loaded.' : ''}`,
      };
    },
    loadTool: (input, loaded) => loadTool(keys, byName, input, loaded),
    has: (name) => byName.has(name),
  };
}

/**
 * `load_tool`'s execute, ported. A name is found when it is a key of the
 * tools object; the package looks it up with `tools[name]`, so names of
 * `Object.prototype` members (`constructor`, `toString`, …) are found too
 * there: here they are not tools and are reported not found (a difference,
 * noted in the README).
 */
function loadTool(
  keys: readonly string[],
  byName: ReadonlyMap<string, EngineTool>,
  { toolName, toolNames }: MastraLoadInput,
  already: ReadonlySet<string>,
): { output: MastraLoadOutput; loaded: string[] } {
  let toLoad: string[];
  const toolNamesProvided = toolNames !== undefined;
  if (toolNamesProvided && toolNames.length === 0 && !toolName)
    return { output: { success: false, message: 'toolNames array must not be empty.' }, loaded: [] };
  if (toolNamesProvided && toolNames.length > 0) {
    const base = [...toolNames];
    if (toolName) base.push(toolName);
    toLoad = Array.from(new Set(base));
  } else if (toolName) toLoad = [toolName];
  else
    return {
      output: { success: false, message: 'You must provide either toolName (string) or toolNames (array) to load.' },
      loaded: [],
    };
  const notFound: string[] = [];
  const alreadyLoaded: string[] = [];
  const loaded: string[] = [];
  for (const name of toLoad) {
    if (!byName.has(name)) {
      notFound.push(name);
      continue;
    }
    if (already.has(name) || loaded.includes(name)) {
      alreadyLoaded.push(name);
      continue;
    }
    loaded.push(name);
  }
  if (toLoad.length === 1 && !toolNamesProvided) {
    if (notFound.length > 0) {
      const name = toLoad[0]!;
      const lower = name.toLowerCase();
      const suggestions = keys.filter((n) => n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase()));
      let message = `Tool "${name}" not found.`;
      if (suggestions.length > 0) message += ` Did you mean: ${suggestions.slice(0, 3).join(', ')}?`;
      else message += ' Use search_tools to find available tools.';
      return { output: { success: false, message, toolName: name }, loaded };
    }
    if (alreadyLoaded.length > 0)
      return {
        output: {
          success: true,
          message: `Tool "${alreadyLoaded[0]}" is already loaded and available.`,
          toolName: alreadyLoaded[0]!,
        },
        loaded,
      };
    return {
      output: {
        success: true,
        message: `Tool "${loaded[0]}" loaded successfully. It will be available on your next turn.`,
        toolName: loaded[0]!,
      },
      loaded,
    };
  }
  const parts: string[] = [];
  if (loaded.length > 0) parts.push(`Loaded: ${loaded.join(', ')} — available on your next turn`);
  if (alreadyLoaded.length > 0) parts.push(`Already loaded: ${alreadyLoaded.join(', ')}`);
  if (notFound.length > 0) parts.push(`Not found: ${notFound.join(', ')}`);
  return {
    output: {
      success: notFound.length === 0,
      message: parts.join(' | '),
      loadedCount: loaded.length,
      ...(loaded.length > 0 ? { loaded } : {}),
      ...(notFound.length > 0 ? { notFound } : {}),
      ...(alreadyLoaded.length > 0 ? { alreadyLoaded } : {}),
    },
    loaded,
  };
}
