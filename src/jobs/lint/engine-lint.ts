/**
 * `lint --engine ai-sdk|mastra|<module>`: findability under another engine.
 * The same questions as the reference's lint, answered by that engine's own
 * ranking: does a query of the tool's own name tokens return it first, and
 * which single words of its name and description return it within the
 * engine's limit (AI SDK maxResults, Mastra topK, a module's maxResults)?
 * Rules about how the reference splits names (empty pieces, giant parts,
 * separators it does not split on) and the long-description heuristic are
 * the reference's and are not run here; collisions up to case, tools whose
 * name tokens are the same, and empty or duplicate descriptions are.
 *
 * One search per distinct word (not per tool and word); a module engine
 * answers from its worker, so this is about linear in the distinct words.
 */
import { append } from '../../core/append.js';
import type { Catalog, CatalogTool } from '../../formats/types.js';
import type { OpenEngine } from '../engines/engine.js';
import {
  DEFAULT_LINT_LIMITS,
  LINT_RULES,
  type LintFinding,
  type LintGroup,
  type LintReport,
  type LintRule,
  type ToolLint,
} from './types.js';
import { lintSummary, RELATED_MAX, sortFindings, sortTools } from './lint.js';

/** The lint report, naming the engine. */
export interface EngineLintReport extends LintReport {
  readonly engine: string;
}

function finding(rule: LintRule, message: string, related: readonly string[] = [], group?: number): LintFinding {
  return { rule, severity: LINT_RULES[rule].severity, message, related, ...(group !== undefined ? { group } : {}) };
}

/** The words a tool tries: its name tokens, then its description's words (by the engine's tokenizer when known). */
function wordsOf(engine: OpenEngine, tool: CatalogTool): string[] {
  const tokens = (text: string): string[] =>
    engine.builtin ? [...engine.builtin.nameTokens(text)] : (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of [...tokens(tool.name), ...tokens(tool.description)]) {
    if (w.length < 2 || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

export async function lintWithEngine(
  catalog: Catalog,
  engine: OpenEngine,
  options: { readonly onProgress?: (done: number, total: number) => void } = {},
): Promise<EngineLintReport> {
  const dynamic = catalog.tools.filter((t) => !t.static);
  const statics = catalog.tools.filter((t) => t.static);
  const limit = engine.limit;
  const results = new Map<string, readonly string[]>();
  const search = async (q: string): Promise<readonly string[]> => {
    let r = results.get(q);
    if (r === undefined) {
      const out = await engine.search(q);
      r = out.ok ? out.matches : [];
      results.set(q, r);
    }
    return r;
  };
  /** The whole ranking of a word (built-in engines), once per word: where a tool stands beyond the limit. */
  const rankings = new Map<string, Map<string, { rank: number; score: number }>>();
  const ranking = (q: string): Map<string, { rank: number; score: number }> => {
    let r = rankings.get(q);
    if (r === undefined) {
      r = new Map((engine.builtin?.rankAll(q) ?? []).map((h, i) => [h.name, { rank: i + 1, score: h.score }]));
      rankings.set(q, r);
    }
    return r;
  };
  const fullRank = (q: string, name: string): number | null => ranking(q).get(name)?.rank ?? null;
  const findingsOf = new Map<string, LintFinding[]>(dynamic.map((t) => [t.name, []]));
  const groups: LintGroup[] = [];
  const addGroup = (
    rule: LintGroup['rule'],
    members: readonly CatalogTool[],
    message: (others: string) => string,
  ): void => {
    const g = groups.length;
    groups.push({ rule, tools: members.map((m) => m.name) });
    for (const t of members) {
      const list = findingsOf.get(t.name);
      if (!list) continue;
      const others = members.filter((o) => o !== t);
      const first = others.slice(0, RELATED_MAX).map((o) => o.name);
      const more = others.length > first.length ? ` and ${others.length - first.length} more` : '';
      list.push(finding(rule, message(`${first.join(', ')}${more}`), first, g));
    }
  };
  const grouped = (key: (t: CatalogTool) => string, tools: readonly CatalogTool[]): CatalogTool[][] => {
    const by = new Map<string, CatalogTool[]>();
    for (const t of tools) {
      const k = key(t);
      if (k === '') continue;
      const list = by.get(k);
      if (list) list.push(t);
      else by.set(k, [t]);
    }
    return [...by.values()].filter((g) => g.length > 1);
  };
  for (const g of grouped((t) => t.name.toLowerCase(), catalog.tools))
    addGroup('case-collision', g, (o) => `its name differs only in case from ${o}`);
  const tokensOf = (t: CatalogTool): readonly string[] => (engine.builtin ? engine.builtin.nameTokens(t.name) : []);
  if (engine.builtin)
    for (const g of grouped((t) => tokensOf(t).join('\u0000'), dynamic))
      if (new Set(g.map((t) => t.name.toLowerCase())).size > 1)
        addGroup(
          'identical-name-parts',
          g,
          (o) =>
            `its name tokens (${tokensOf(g[0]!).join(' ')}) are those of ${o}: only the descriptions tell them apart`,
        );
  for (const t of dynamic)
    if (t.description === '')
      findingsOf
        .get(t.name)!
        .push(finding('empty-description', 'the description is empty: only its name can be matched'));
  for (const g of grouped((t) => (t.description === '' ? '' : t.description.trim().toLowerCase()), dynamic))
    addGroup('duplicate-description', g, (o) => `its description is the same as that of ${o}`);

  const tools: ToolLint[] = [];
  options.onProgress?.(0, dynamic.length);
  for (const [i, t] of dynamic.entries()) {
    const parts = engine.builtin ? [...tokensOf(t)] : [];
    const findings: LintFinding[] = [];
    // The own-name query: the tool's name tokens (a module: the name as it is).
    const query = parts.length > 0 ? parts.join(' ') : t.name;
    const got = await search(query);
    const at = got.indexOf(t.name);
    const rank = at < 0 ? null : at + 1;
    const full = rank ?? fullRank(query, t.name);
    const scoreOf = (q: string, name: string): number => ranking(q).get(name)?.score ?? 0;
    const first = got[0] !== undefined && got[0] !== t.name ? { name: got[0], score: scoreOf(query, got[0]) } : null;
    if (engine.builtin && parts.length === 0)
      findings.push(
        finding(
          'no-name-parts',
          `"${t.name}" has no name tokens for the ${engine.name} engine: no word matches it by name`,
        ),
      );
    else if (rank === null)
      findings.push(
        finding(
          'own-name-missed',
          `the query "${query}" does not return it within the ${engine.name} engine's limit ${limit}` +
            `${full !== null ? `: it ranks ${full}` : ''}${first ? `; first is ${first.name}` : ''}`,
          first ? [first.name] : [],
        ),
      );
    else if (rank > 1)
      findings.push(
        finding(
          'own-name-not-first',
          `the query "${query}" returns it at rank ${rank}${first ? `; first is ${first.name}` : ''}`,
          first ? [first.name] : [],
        ),
      );
    const words: Array<{ word: string; rank: number | null }> = [];
    for (const w of wordsOf(engine, t)) {
      const r = await search(w);
      const k = r.indexOf(t.name);
      words.push({ word: w, rank: k < 0 ? fullRank(w, t.name) : k + 1 });
    }
    const reaching = words.filter((w): w is { word: string; rank: number } => w.rank !== null && w.rank <= limit);
    const matching = words.filter((w) => w.rank !== null);
    let closest: { word: string; rank: number } | null = null;
    for (const w of matching) if (closest === null || w.rank! < closest.rank) closest = { word: w.word, rank: w.rank! };
    if (reaching.length === 0 && words.length > 0)
      findings.push(
        finding(
          'crowded-out',
          `none of the ${words.length} words of its name and description returns it within the ${engine.name} ` +
            `engine's limit ${limit}${closest ? `; the closest is "${closest.word}" at rank ${closest.rank}` : ''}`,
        ),
      );
    append(findings, findingsOf.get(t.name)!);
    sortFindings(findings);
    const errors = findings.filter((f) => f.severity === 'error').length;
    tools.push({
      name: t.name,
      source: t.source,
      parts,
      own_name: { query, rank, full_rank: full, score: scoreOf(query, t.name), first },
      reach: {
        words_tried: words.length,
        words_reaching: reaching.length,
        best: [...reaching].sort((a, b) => a.rank - b.rank).slice(0, 3),
        closest: reaching.length === 0 ? closest : null,
        words_matching: matching.length,
        words,
      },
      findings,
      errors,
      warnings: findings.length - errors,
    });
    options.onProgress?.(i + 1, dynamic.length);
  }
  sortTools(tools);
  return {
    engine: engine.name,
    catalog: { source: catalog.sources.map((s) => s.file).join(', '), dynamic: dynamic.length, static: statics.length },
    limits: DEFAULT_LINT_LIMITS,
    tools,
    groups,
    summary: lintSummary(tools),
  };
}
