/**
 * The linter as it was before issue 14 (c63dd70), kept as the slow obvious
 * model: one search per tool and word, every pair of a group listed. The
 * property test in near-linear.test.ts checks the near-linear linter against
 * it on small random catalogs.
 *
 * Over 400 lines on purpose: a frozen copy of the old linter.
 */
import {
  codePoints,
  compareGo,
  DEFAULT_MAX_RESULTS,
  goFields,
  goToLower,
  parseKeywords,
  searchDecoded,
  ToolIndex,
  type ScoredTool,
} from '../../../src/core/index.js';
import { nameWords, textWords } from '../../../src/jobs/eval/words.js';
import type { Catalog, CatalogTool } from '../../../src/formats/types.js';
import {
  DEFAULT_LINT_LIMITS,
  LINT_RULES,
  type LintFinding,
  type LintLimits,
  type LintReport,
  type LintRule,
  type OwnNameCheck,
  type ReachCheck,
  type ToolLint,
} from '../../../src/jobs/lint/types.js';

/** Words shorter than this are not tried as one-word queries (a model would not send `a`). */
const MIN_WORD_LENGTH = 2;

/** Reaching words listed per tool. */
const BEST_WORDS = 3;

function finding(rule: LintRule, message: string, related: readonly string[] = []): LintFinding {
  return { rule, severity: LINT_RULES[rule].severity, message, related };
}

function length(s: string): number {
  return codePoints(s).length;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Runs one query as the model would send it, with max_results 5 (the reference's default). */
class Searcher {
  private readonly top = new Map<string, readonly ScoredTool[]>();
  private readonly full = new Map<string, readonly ScoredTool[]>();

  constructor(readonly index: ToolIndex) {}

  /** The result for `query` (max_results 5); [] when the reference returns an error. */
  results(query: string): readonly ScoredTool[] {
    let r = this.top.get(query);
    if (r === undefined) {
      const out = searchDecoded(this.index, { query, maxResults: DEFAULT_MAX_RESULTS });
      r = !out.ok ? [] : out.mode === 'keyword' ? out.results : out.matches.map((name) => ({ name, score: 0 }));
      this.top.set(query, r);
    }
    return r;
  }

  /** Every tool with a positive score for the keyword query, in result order (no cut). */
  ranking(query: string): readonly ScoredTool[] {
    let r = this.full.get(query);
    if (r === undefined) {
      r = this.index.rankAll(parseKeywords(query));
      this.full.set(query, r);
    }
    return r;
  }

  /** The tool's score for a keyword query (0 when a required keyword excludes it). */
  score(query: string, name: string): number {
    return this.index.explainTool(name, parseKeywords(query))?.score ?? 0;
  }

  /**
   * The tool's rank in the full ranking, or null when it scores 0: a binary
   * search on (score descending, name in Go order), the ranking's own order.
   */
  rankIn(query: string, name: string): number | null {
    const score = this.score(query, name);
    if (score <= 0) return null;
    const list = this.ranking(query);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const e = list[mid]!;
      if (e.score > score || (e.score === score && compareGo(e.name, name) < 0)) lo = mid + 1;
      else hi = mid;
    }
    return list[lo]?.name === name ? lo + 1 : null;
  }
}

/** Words tried for "closest" when none reaches a tool: the ones scoring highest on it. */
const CLOSEST_CANDIDATES = 5;

function rankOf(list: readonly ScoredTool[], name: string): number | null {
  const i = list.findIndex((r) => r.name === name);
  return i < 0 ? null : i + 1;
}

function checkOwnName(
  s: Searcher,
  tool: CatalogTool,
  parts: readonly string[],
): { check: OwnNameCheck; findings: LintFinding[] } {
  const query = parts.join(' ');
  const results = s.results(query);
  const rank = rankOf(results, tool.name);
  const explained = s.index.explainTool(tool.name, parseKeywords(query));
  const score = explained?.score ?? 0;
  const full = rank ?? (query.startsWith('select:') ? null : s.rankIn(query, tool.name));
  const top = results[0];
  const first = top && top.name !== tool.name ? { name: top.name, score: top.score } : null;
  const check: OwnNameCheck = { query, rank, full_rank: full, score, first };
  const findings: LintFinding[] = [];
  if (parts.length === 0) return { check, findings };
  const firstText = first ? `; first is ${first.name} (${first.score})` : '';
  if (rank === null) {
    const where = full === null ? 'it does not match at all' : `it ranks ${full} with score ${score}`;
    findings.push(
      finding(
        'own-name-missed',
        `the query "${query}" does not return it within max_results ${DEFAULT_MAX_RESULTS}: ${where}${firstText}`,
        first ? [first.name] : [],
      ),
    );
  } else if (rank > 1) {
    const tie = first && first.score === score ? ' (same score: ties are ordered by name)' : '';
    findings.push(
      finding(
        'own-name-not-first',
        `the query "${query}" returns it at rank ${rank} with score ${score}${firstText}${tie}`,
        first ? [first.name] : [],
      ),
    );
  }
  return { check, findings };
}

/** The distinct one-word queries worth trying for a tool: its name parts and words, then its description words. */
function candidateWords(tool: CatalogTool, parts: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (w: string): void => {
    // A name part may hold white space or start with `+`: try only what a model would send as one word.
    if (length(w) < MIN_WORD_LENGTH || w.startsWith('+') || goFields(w).length !== 1 || seen.has(w)) return;
    seen.add(w);
    out.push(w);
  };
  for (const p of parts) add(goToLower(p));
  for (const w of nameWords(tool.name)) add(w);
  for (const w of textWords(tool.description)) add(w);
  return out;
}

function checkReach(
  s: Searcher,
  tool: CatalogTool,
  parts: readonly string[],
): { check: ReachCheck; findings: LintFinding[] } {
  const tried = candidateWords(tool, parts);
  const reaching: Array<{ word: string; rank: number }> = [];
  const words: Array<{ word: string; rank: number | null }> = [];
  for (const w of tried) {
    const rank = rankOf(s.results(w), tool.name);
    if (rank !== null) reaching.push({ word: w, rank });
    // Beyond max_results 5: its place in the whole ranking (a `select:` word is no keyword query).
    words.push({ word: w, rank: rank ?? (w.startsWith('select:') ? null : s.rankIn(w, tool.name)) });
  }
  // Stable: equal ranks keep the order tried (name words before description words).
  const best = [...reaching].sort((a, b) => a.rank - b.rank).slice(0, BEST_WORDS);
  let closest: { word: string; rank: number } | null = null;
  const findings: LintFinding[] = [];
  if (reaching.length === 0 && tried.length > 0) {
    // The full ranking is costly on a large catalog: look only at the words that score highest on the tool.
    const strongest = tried
      .map((w, i) => ({ w, i, score: s.score(w, tool.name) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, CLOSEST_CANDIDATES);
    for (const { w } of strongest) {
      const rank = s.rankIn(w, tool.name);
      if (rank !== null && (closest === null || rank < closest.rank)) closest = { word: w, rank };
    }
    const near = closest ? `; the closest is "${closest.word}" at rank ${closest.rank}` : '';
    const crowd = closest ? s.results(closest.word).map((r) => r.name) : [];
    findings.push(
      finding(
        'crowded-out',
        `${tried.length === 1 ? 'the only word' : `none of the ${tried.length} words`} ` +
          `of its name and description` +
          ` ${tried.length === 1 ? 'does not return' : 'returns'} it within ` +
          `max_results ${DEFAULT_MAX_RESULTS}${near}`,
        crowd,
      ),
    );
  }
  const matching = words.filter((w) => w.rank !== null).length;
  return {
    check: {
      words_tried: tried.length,
      words_reaching: reaching.length,
      best,
      closest,
      words_matching: matching,
      words,
    },
    findings,
  };
}

function checkNameShape(tool: CatalogTool, parts: readonly string[], limits: LintLimits): LintFinding[] {
  const out: LintFinding[] = [];
  if (parts.length === 0) {
    out.push(
      finding(
        'no-name-parts',
        `"${tool.name}" has no name parts (it is only underscores): no keyword matches it by name`,
      ),
    );
    return out;
  }
  const pieces = tool.name.split('__').flatMap((seg) => seg.split('_'));
  if (pieces.some((p) => p === '')) {
    out.push(
      finding(
        'empty-name-pieces',
        `"${tool.name}" has empty pieces (a leading or trailing "_", or ` +
          `"___"); they are dropped, leaving parts ${parts.join(', ')}`,
      ),
    );
  }
  for (const p of parts) {
    const n = length(p);
    const sep = /[^\p{L}\p{M}\p{N}]/u.exec(p);
    // A long part made of words joined by a separator is reported as the separator's problem.
    if (n > limits.giantPart && !sep) {
      out.push(
        finding(
          'giant-name-part',
          `the name part "${p}" has ${n} characters (limit ${limits.giantPart}): a ` +
            `word inside it scores only 5 (inside a part), never 10`,
        ),
      );
    }
    if (sep) {
      const inner = textWords(p);
      const example =
        inner.length > 1 ? `: the keyword "${inner[inner.length - 1]}" scores 5 (inside the part), not 10` : '';
      out.push(
        finding(
          'unsplit-separator',
          `the name part "${p}" contains "${sep[0]}", which the reference does not split on${example}`,
        ),
      );
    }
  }
  return out;
}

/**
 * Lints the dynamic tools of a catalog (static tools are never searched;
 * they only take part in the case-collision check).
 */
export function quadraticLint(catalog: Catalog, limits: LintLimits = DEFAULT_LINT_LIMITS): Omit<LintReport, 'groups'> {
  const dynamic = catalog.tools.filter((t) => !t.static);
  const statics = catalog.tools.filter((t) => t.static);
  const index = new ToolIndex(dynamic);
  const searcher = new Searcher(index);
  const findingsOf = new Map<string, LintFinding[]>(dynamic.map((t) => [t.name, []]));
  const add = (name: string, f: LintFinding): void => {
    findingsOf.get(name)?.push(f);
  };

  // Names colliding up to case (static tools included: the model sees both).
  const byLower = new Map<string, CatalogTool[]>();
  for (const t of catalog.tools) {
    const k = goToLower(t.name);
    const g = byLower.get(k);
    if (g) g.push(t);
    else byLower.set(k, [t]);
  }
  for (const group of byLower.values()) {
    if (group.length < 2) continue;
    for (const t of group) {
      const others = group.filter((o) => o !== t).map((o) => (o.static ? `${o.name} (static)` : o.name));
      add(
        t.name,
        finding(
          'case-collision',
          `its name differs only in case from ${others.join(', ')}`,
          group.filter((o) => o !== t).map((o) => o.name),
        ),
      );
    }
  }

  // Identical name parts (up to case) between names that are not mere case variants.
  const byParts = new Map<string, CatalogTool[]>();
  for (const t of dynamic) {
    const k = (index.partsOf(t.name) ?? []).map(goToLower).join('\u0000');
    if (k === '') continue;
    const g = byParts.get(k);
    if (g) g.push(t);
    else byParts.set(k, [t]);
  }
  for (const group of byParts.values()) {
    for (const t of group) {
      const others = group.filter((o) => goToLower(o.name) !== goToLower(t.name)).map((o) => o.name);
      if (others.length === 0) continue;
      const parts = (index.partsOf(t.name) ?? []).map(goToLower).join(' ');
      add(
        t.name,
        finding(
          'identical-name-parts',
          `its name parts (${parts}) are those of ${others.join(', ')}: only the descriptions tell them apart`,
          others,
        ),
      );
    }
  }

  // Descriptions: empty, duplicated, too long.
  const normalized = (d: string): string => goFields(goToLower(d)).join(' ');
  const byDesc = new Map<string, CatalogTool[]>();
  for (const t of dynamic) {
    if (t.description === '') {
      add(
        t.name,
        finding(
          'empty-description',
          'the description is empty: the description rule (2 points) never matches, only name keywords find it',
        ),
      );
      continue;
    }
    const k = normalized(t.description);
    const g = byDesc.get(k);
    if (g) g.push(t);
    else byDesc.set(k, [t]);
  }
  for (const group of byDesc.values()) {
    if (group.length < 2) continue;
    for (const t of group) {
      const others = group.filter((o) => o !== t).map((o) => o.name);
      add(
        t.name,
        finding('duplicate-description', `its description is the same as that of ${others.join(', ')}`, others),
      );
    }
  }
  const lengths = dynamic.filter((t) => t.description !== '').map((t) => length(t.description));
  const med = median(lengths);
  const longThreshold = Math.max(limits.longDescriptionMin, limits.longDescriptionFactor * med);
  let vocabulary: string[] | null = null;
  for (const t of dynamic) {
    const n = length(t.description);
    if (n < longThreshold) continue;
    vocabulary ??= [...new Set(dynamic.flatMap((d) => textWords(d.description)).filter((w) => length(w) >= 3))];
    const lower = goToLower(t.description);
    const hits = vocabulary.filter((w) => lower.includes(w)).length;
    const share = vocabulary.length === 0 ? 0 : Math.round((100 * hits) / vocabulary.length);
    add(
      t.name,
      finding(
        'long-description',
        `the description has ${n} characters (median ${Math.round(med)}); it ` +
          `contains ${hits} of the ${vocabulary.length} words of all descriptions ` +
          `(${share}%), so it matches (2 points) most queries that miss the names`,
      ),
    );
  }

  const tools: ToolLint[] = dynamic.map((t) => {
    const parts = index.partsOf(t.name) ?? [];
    const own = checkOwnName(searcher, t, parts);
    const reach = checkReach(searcher, t, parts);
    const findings = [
      ...own.findings,
      ...reach.findings,
      ...checkNameShape(t, parts, limits),
      ...findingsOf.get(t.name)!,
    ];
    // Errors before warnings, then by rule order of LINT_RULES.
    const order = Object.keys(LINT_RULES) as LintRule[];
    findings.sort((a, b) => order.indexOf(a.rule) - order.indexOf(b.rule));
    const errors = findings.filter((f) => f.severity === 'error').length;
    return {
      name: t.name,
      source: t.source,
      parts,
      own_name: own.check,
      reach: reach.check,
      findings,
      errors,
      warnings: findings.length - errors,
    };
  });
  tools.sort((a, b) => b.errors - a.errors || b.warnings - a.warnings || compareGo(a.name, b.name));

  const byRule = Object.fromEntries((Object.keys(LINT_RULES) as LintRule[]).map((r) => [r, 0])) as Record<
    LintRule,
    number
  >;
  for (const t of tools) for (const f of t.findings) byRule[f.rule]++;
  return {
    catalog: { source: catalog.sources.map((s) => s.file).join(', '), dynamic: dynamic.length, static: statics.length },
    limits,
    tools,
    summary: {
      tools: tools.length,
      errors: tools.reduce((a, t) => a + t.errors, 0),
      warnings: tools.reduce((a, t) => a + t.warnings, 0),
      clean: tools.filter((t) => t.findings.length === 0).length,
      own_name_first: tools.filter((t) => t.own_name.rank === 1).length,
      by_rule: byRule,
    },
  };
}
