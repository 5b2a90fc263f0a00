/**
 * The tool search of the Vercel AI SDK 7, ported: `toolSearch()` and the
 * default ranking inside `createToolSearchState` (package `ai` 7.0.173,
 * `dist/index.js`, region `src/tool-search/prepare-tool-search.ts`).
 *
 * - Each deferred tool (`deferLoading: true`) scores, over the query's unique
 *   terms, 2 when the term is one of its name's tokens plus 1 when it is one of
 *   its description's tokens. Tokens: camelCase split (`([a-z\d])([A-Z])`),
 *   lower-cased, runs of Unicode letters and digits ({@link aiSdkTokenize}).
 * - Tools scoring above 0, highest first; ties keep the order of the `tools`
 *   object (JavaScript key order: array-index names first, see
 *   {@link objectKeyOrder}); the first `maxResults` (default 5) are returned as
 *   `{ tools: [{ name, description }] }`.
 * - A found tool joins the generation's discovered set and is sent to the
 *   model from the next step of the same generation; a new `generateText`
 *   starts with none discovered. There is no direct selection by name.
 * - The tool's input schema is `{query: string, minLength 1}` with no other
 *   property, but the SDK does not validate a JSON schema it is given: an
 *   empty query or extra keys run the search (an empty query finds nothing).
 *   The model cannot pass a limit.
 *
 * Case and letters follow the JavaScript engine that runs it (`toLowerCase`,
 * `\p{L}`), as the package's do: the same Node gives the same tokens.
 */
import {
  objectKeyOrder,
  type EngineHit,
  type EngineOutcome,
  type EngineTool,
  type SearchEngine,
  type TermScore,
} from './types.js';

/** `toolSearch({ maxResults })`'s default. */
export const AI_SDK_DEFAULT_MAX_RESULTS = 5;

/** The package's tokenizer, verbatim. */
export function aiSdkTokenize(text: string): string[] {
  return (
    text
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The description the SDK gives the search tool (`toolSearch()` without a custom search). */
export function aiSdkToolSearchDescription(maxResults: number, custom = false): string {
  return (
    (custom ? 'Search for tools matching a query.' : 'Search for tools by keywords in their names and descriptions.') +
    ` Returns up to ${maxResults === 5 ? 'five' : maxResults} matching tools. Matches become available on the next ` +
    'model step, after this execution finishes. Wait for their tool definitions before calling the discovered ' +
    'tools. If no tools match, try different keywords.'
  );
}

/** The search tool's input schema, as the SDK declares it. */
export const AI_SDK_TOOL_SEARCH_PARAMETERS = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1 } },
  required: ['query'],
  additionalProperties: false,
} as const;

/** Options of {@link createAiSdkEngine}. */
export interface AiSdkOptions {
  /** `toolSearch({ maxResults })`: a positive safe integer (default 5). */
  readonly maxResults?: number;
}

interface Prepared {
  readonly name: string;
  readonly description: string;
  readonly nameTerms: readonly string[];
  readonly descriptionTerms: readonly string[];
}

/** The AI SDK 7 search over the deferred tools of a catalog (given in catalog order). */
export function createAiSdkEngine(tools: readonly EngineTool[], options: AiSdkOptions = {}): SearchEngine {
  const maxResults = options.maxResults ?? AI_SDK_DEFAULT_MAX_RESULTS;
  if (!Number.isSafeInteger(maxResults) || maxResults < 1)
    throw new RangeError('maxResults must be a positive safe integer.');
  const byName = new Map(tools.map((t) => [t.name, t]));
  const prepared: Prepared[] = objectKeyOrder(tools.map((t) => t.name)).map((name) => {
    const description = byName.get(name)!.description;
    return { name, description, nameTerms: aiSdkTokenize(name), descriptionTerms: aiSdkTokenize(description) };
  });
  const index = new Map(prepared.map((p) => [p.name, p]));

  const scoreOf = (p: Prepared, terms: readonly string[]): number =>
    terms.reduce(
      (score, term) => score + (p.nameTerms.includes(term) ? 2 : 0) + (p.descriptionTerms.includes(term) ? 1 : 0),
      0,
    );

  const rankAll = (query: string): EngineHit[] => {
    const terms = [...new Set(aiSdkTokenize(query))];
    // Array.prototype.sort is stable: ties keep the tools object's order, as in the package.
    return prepared
      .map((p) => ({ name: p.name, score: scoreOf(p, terms) }))
      .filter((m) => m.score > 0)
      .sort((a, b) => b.score - a.score);
  };

  const searchWithLimit = (query: string, limit: number): EngineOutcome => {
    const ranking = rankAll(query);
    const hits = ranking.slice(0, limit);
    return {
      ok: true,
      matches: hits.map((h) => h.name),
      scores: hits.map((h) => h.score),
      result: { tools: hits.map((h) => ({ name: h.name, description: index.get(h.name)!.description })) },
      total: ranking.length,
      limit,
    };
  };

  return {
    id: 'ai-sdk',
    loading: {
      resultShape: 'tools',
      loadsBy: 'search',
      visibleFrom: 'next-call',
      keeps: 'generation',
      directSelection: null,
    },
    limit: maxResults,
    summary:
      'the AI SDK 7 toolSearch (name token 2, description token 1 per unique query term; ' +
      `maxResults ${maxResults})`,
    search: (query) => searchWithLimit(query, maxResults),
    searchWithLimit,
    rankAll,
    explain(query, name): TermScore[] {
      const p = index.get(name);
      if (p === undefined) return [];
      return [...new Set(aiSdkTokenize(query))].map((term) => {
        const inName = p.nameTerms.includes(term);
        const inDescription = p.descriptionTerms.includes(term);
        const rule =
          inName && inDescription ? 'name+description' : inName ? 'name' : inDescription ? 'description' : 'none';
        return { term, rule, points: (inName ? 2 : 0) + (inDescription ? 1 : 0) };
      });
    },
    nameTokens: (name) => index.get(name)?.nameTerms ?? aiSdkTokenize(name),
  };
}
