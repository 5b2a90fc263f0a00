/**
 * The findability linter: for each dynamic tool of a catalog, how well the
 * reference's keyword search can find it, and what in its name or
 * description gets in the way. Every ranking comes from the core scorer
 * (`searchDecoded`, `ToolIndex`); nothing here scores on its own.
 *
 * It grows near-linearly with the catalog (issue 14): each distinct word is
 * ranked once (`rankAll`) and that one ranking gives every tool that tries
 * the word its rank; a tool's own-name query, whose best possible score the
 * tool itself has, ranks it among the tools holding every one of its name
 * parts (an intersection of the words' exact-part lists), computed once per
 * distinct query; tools sharing a name up to case, name parts or a
 * description are reported as one group (listed once in `groups`), each
 * member's finding naming a few others.
 *
 * Over 400 lines: the shared rankings and every finding drawn from them are one computation (the
 * report types live in types.ts, the rendering in report/).
 */
import {
  codePoints,
  compareGo,
  DEFAULT_MAX_RESULTS,
  goFields,
  goToLower,
  parseKeywords,
  RULES,
  searchDecoded,
  ToolIndex,
  type Keyword,
  type ScoredTool,
} from '../../core/index.js';
import { nameWords, textWords } from '../eval/words.js';
import { VocabularyMatcher } from './vocabulary.js';
import type { Catalog, CatalogTool } from '../../formats/types.js';
import {
  DEFAULT_LINT_LIMITS,
  LINT_RULES,
  type LintFinding,
  type LintGroup,
  type LintLimits,
  type LintReport,
  type LintRule,
  type OwnNameCheck,
  type ReachCheck,
  type ToolLint,
} from './types.js';

/** Words shorter than this are not tried as one-word queries (a model would not send `a`). */
const MIN_WORD_LENGTH = 2;

/** Reaching words listed per tool. */
const BEST_WORDS = 3;

/** Other members a group finding names (the whole group is in the report's `groups`). */
export const RELATED_MAX = 5;

function finding(rule: LintRule, message: string, related: readonly string[] = [], group?: number): LintFinding {
  return { rule, severity: LINT_RULES[rule].severity, message, related, ...(group !== undefined ? { group } : {}) };
}

/** `a, b, c` or `a, b, c, d, e and 19,994 more`: the first names of `count`. */
function someNames(first: readonly string[], count: number): string {
  return count <= first.length
    ? first.join(', ')
    : `${first.join(', ')} and ${(count - first.length).toLocaleString('en-US')} more`;
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

/** Full rankings kept for rank look-ups (each a few bytes per tool): the most recent ones. */
const RANKINGS_KEPT = 8;

/** Runs one query as the model would send it, with max_results 5 (the reference's default). */
class Searcher {
  private readonly top = new Map<string, readonly ScoredTool[]>();
  private readonly full = new Map<string, { readonly tools: Int32Array; readonly scores: Int32Array }>();

  constructor(
    readonly index: ToolIndex,
    /** Tool names by position in the catalog order the index was built from. */
    private readonly names: readonly string[],
  ) {}

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

  /** Every tool with a positive score for the keyword query, in result order (no cut), as typed arrays. */
  private ranking(query: string): { readonly tools: Int32Array; readonly scores: Int32Array } {
    let r = this.full.get(query);
    if (r === undefined) {
      r = this.index.rankAllIds(parseKeywords(query));
      if (this.full.size >= RANKINGS_KEPT) this.full.delete(this.full.keys().next().value!);
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
    const { tools, scores } = this.ranking(query);
    let lo = 0;
    let hi = tools.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const s = scores[mid]!;
      if (s > score || (s === score && compareGo(this.names[tools[mid]!]!, name) < 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo < tools.length && this.names[tools[lo]!] === name ? lo + 1 : null;
  }
}

/** Words tried for "closest" when none reaches a tool: the ones scoring highest on it. */
const CLOSEST_CANDIDATES = 5;

function rankOf(list: readonly ScoredTool[], name: string): number | null {
  const i = list.findIndex((r) => r.name === name);
  return i < 0 ? null : i + 1;
}

/** What the own-name check reports, however it was computed. */
function ownNameOutcome(
  tool: CatalogTool,
  query: string,
  parts: readonly string[],
  rank: number | null,
  full: number | null,
  score: number,
  top: { name: string; score: number } | undefined,
): { check: OwnNameCheck; findings: LintFinding[] } {
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

/** The own-name check by searching: for the queries {@link OwnNameRanks} cannot answer. */
function checkOwnName(
  s: Searcher,
  tool: CatalogTool,
  parts: readonly string[],
): { check: OwnNameCheck; findings: LintFinding[] } {
  const query = parts.join(' ');
  const results = s.results(query);
  const rank = rankOf(results, tool.name);
  const score = s.index.explainTool(tool.name, parseKeywords(query))?.score ?? 0;
  const full = rank ?? (query.startsWith('select:') ? null : s.rankIn(query, tool.name));
  return ownNameOutcome(tool, query, parts, rank, full, score, results[0]);
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

/**
 * Every tool's rank in the one-word search of each word it tries, from one
 * full ranking per distinct word (not one search per tool and word): the
 * work is the sum of the rankings' lengths, and the memory one rank and one
 * score per tried word.
 */
class WordRanks {
  /** Distinct words, by id. */
  readonly words: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Per tool, the ids of the words it tries, in order: tried[start[t] .. start[t + 1]). */
  readonly start: Int32Array;
  readonly tried: Int32Array;
  /** Per tried word: the tool's rank in the word's full ranking (0: not in it) and its score there. */
  readonly rank: Int32Array;
  readonly score: Int32Array;
  /** Per word: its first results (max_results 5). */
  readonly top: Array<readonly string[]> = [];
  /** Per word used as an own-name keyword: the tools that have it as a name part, in result order. */
  private readonly exact = new Map<string, Int32Array>();

  constructor(
    private readonly index: ToolIndex,
    /** Tool names by position in the catalog order the index was built from. */
    names: readonly string[],
    /** The words tool `t` tries; called once per tool, in order (the words are not all held at once). */
    triedWords: (t: number) => readonly string[],
    /** Lower-cased keywords whose exact-part lists the own-name check needs. */
    exactWords: ReadonlySet<string>,
  ) {
    const n = names.length;
    this.start = new Int32Array(n + 1);
    let tried = new Int32Array(Math.max(16, n * 8));
    let total = 0;
    for (let t = 0; t < n; t++) {
      this.start[t] = total;
      const words = triedWords(t);
      if (total + words.length > tried.length) {
        const grown = new Int32Array(Math.max(tried.length * 2, total + words.length));
        grown.set(tried);
        tried = grown;
      }
      for (const w of words) tried[total++] = this.idOf(w);
    }
    this.start[n] = total;
    this.tried = tried.slice(0, total);
    for (const w of exactWords) this.idOf(w);
    // Who tries which word: a counting sort of the pairs by word.
    const byWordStart = new Int32Array(this.words.length + 1);
    for (let k = 0; k < total; k++) byWordStart[this.tried[k]! + 1]!++;
    for (let w = 0; w < this.words.length; w++) byWordStart[w + 1]! += byWordStart[w]!;
    const fill = byWordStart.slice(0, this.words.length);
    const pairsByWord = new Int32Array(total);
    for (let k = 0; k < total; k++) pairsByWord[fill[this.tried[k]!]!++] = k;
    const pairTool = new Int32Array(total);
    for (let t = 0; t < n; t++) pairTool.fill(t, this.start[t]!, this.start[t + 1]!);

    this.rank = new Int32Array(total);
    this.score = new Int32Array(total);
    const rankOfTool = new Int32Array(n);
    const scoreOfTool = new Int32Array(n);
    const stamp = new Int32Array(n);
    const exactPoints = RULES['exact-part'].points;
    for (let w = 0; w < this.words.length; w++) {
      const word = this.words[w]!;
      if (word.startsWith('select:')) {
        // Not a keyword query: no ranking (its pairs keep rank 0; see Searcher for its results).
        this.top.push([]);
        continue;
      }
      const ranking = index.rankAllIds(parseKeywords(word));
      const top: string[] = [];
      for (let i = 0; i < Math.min(DEFAULT_MAX_RESULTS, ranking.tools.length); i++) top.push(names[ranking.tools[i]!]!);
      this.top.push(top);
      const mark = w + 1;
      let exactCount = 0;
      for (let i = 0; i < ranking.tools.length; i++) {
        const id = ranking.tools[i]!;
        rankOfTool[id] = i + 1;
        scoreOfTool[id] = ranking.scores[i]!;
        stamp[id] = mark;
        if (ranking.scores[i] === exactPoints) exactCount = i + 1;
      }
      for (let k = byWordStart[w]!; k < byWordStart[w + 1]!; k++) {
        const pair = pairsByWord[k]!;
        const t = pairTool[pair]!;
        if (stamp[t] === mark) {
          this.rank[pair] = rankOfTool[t]!;
          this.score[pair] = scoreOfTool[t]!;
        }
      }
      if (exactWords.has(word)) {
        // One keyword scores 10 only by equalling a name part, and those come first, in name order.
        this.exact.set(word, ranking.tools.slice(0, exactCount));
      }
    }
  }

  /** The words tried at pairs from..to, each with the tool's rank (null: it does not return the tool). */
  wordsOf(from: number, to: number): Array<{ word: string; rank: number | null }> {
    const out: Array<{ word: string; rank: number | null }> = [];
    for (let k = from; k < to; k++) out.push({ word: this.words[this.tried[k]!]!, rank: this.rank[k] || null });
    return out;
  }

  private idOf(w: string): number {
    let id = this.ids.get(w);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(w, id);
      this.words.push(w);
    }
    return id;
  }

  /** The tools that have `lower` as a name part, in result order (ties by name, Go order). */
  exactList(lower: string): Int32Array {
    let list = this.exact.get(lower);
    if (list === undefined) {
      const { tools, scores } = this.index.rankAllIds(parseKeywords(lower));
      let count = 0;
      while (count < scores.length && scores[count] === RULES['exact-part'].points) count++;
      list = tools.slice(0, count);
      this.exact.set(lower, list);
    }
    return list;
  }
}

/**
 * The own-name check without a search per tool. The query is the tool's
 * name parts, so (without a `+` and when each part is one keyword) the tool
 * gets the most any tool can: every keyword equals one of its parts. Only
 * tools holding every keyword as a name part score as much, and they come
 * first, ordered by name: the tool's rank is its place among them. The list
 * is computed once per distinct set of keywords (tools sharing their name
 * parts share it), by intersecting the shortest exact-part list with the others.
 */
class OwnNameRanks {
  private readonly groups = new Map<string, { list: readonly number[]; position: Map<number, number> }>();
  private readonly sets = new Map<string, Set<number>>();

  constructor(private readonly words: WordRanks) {}

  /** The keywords of an own-name query this class answers, or null when it must be searched. */
  static keywordsOf(index: ToolIndex, tool: CatalogTool, parts: readonly string[]): Keyword[] | null {
    const query = parts.join(' ');
    if (parts.length === 0 || query.startsWith('select:')) return null;
    const keywords = parseKeywords(query);
    if (keywords.length === 0 || keywords.some((k) => k.required)) return null;
    const score = index.explainTool(tool.name, keywords)?.score ?? 0;
    return score === RULES['exact-part'].points * keywords.length ? keywords : null;
  }

  private setOf(lower: string): Set<number> {
    let set = this.sets.get(lower);
    if (set === undefined) {
      set = new Set(this.words.exactList(lower));
      this.sets.set(lower, set);
    }
    return set;
  }

  /** The tools scoring the most for these keywords, in result order, and each one's place. */
  private group(keywords: readonly Keyword[]): { list: readonly number[]; position: Map<number, number> } {
    const distinct = [...new Set(keywords.map((k) => k.lower))].sort();
    const key = distinct.join('\u0000');
    let g = this.groups.get(key);
    if (g === undefined) {
      const lists = distinct.map((w) => this.words.exactList(w)).sort((a, b) => a.length - b.length);
      const others = distinct.filter((w) => this.words.exactList(w) !== lists[0]).map((w) => this.setOf(w));
      const list: number[] = [];
      for (const id of lists[0]!) if (others.every((o) => o.has(id))) list.push(id);
      const position = new Map<number, number>();
      list.forEach((id, i) => position.set(id, i + 1));
      g = { list, position };
      this.groups.set(key, g);
    }
    return g;
  }

  check(
    tool: CatalogTool,
    id: number,
    parts: readonly string[],
    keywords: readonly Keyword[],
    names: readonly string[],
  ): { check: OwnNameCheck; findings: LintFinding[] } | null {
    const { list, position } = this.group(keywords);
    const place = position.get(id);
    if (place === undefined) return null;
    const score = RULES['exact-part'].points * keywords.length;
    const rank = place <= DEFAULT_MAX_RESULTS ? place : null;
    return ownNameOutcome(tool, parts.join(' '), parts, rank, place, score, { name: names[list[0]!]!, score });
  }
}

function checkReach(
  s: Searcher,
  ranks: WordRanks,
  t: number,
  tool: CatalogTool,
): { check: ReachCheck; findings: LintFinding[] } {
  const from = ranks.start[t]!;
  const to = ranks.start[t + 1]!;
  const tried: string[] = [];
  const reaching: Array<{ word: string; rank: number }> = [];
  const scored: Array<{ w: string; i: number; score: number; rank: number }> = [];
  let matching = 0;
  for (let k = from; k < to; k++) {
    const w = ranks.words[ranks.tried[k]!]!;
    tried.push(w);
    if (w.startsWith('select:')) {
      // A `select:` word is no keyword query: it returns the tool only by naming it.
      const rank = rankOf(s.results(w), tool.name);
      ranks.rank[k] = rank ?? 0;
      if (rank !== null) {
        reaching.push({ word: w, rank });
        matching++;
      }
      continue;
    }
    const full = ranks.rank[k]!;
    if (full >= 1 && full <= DEFAULT_MAX_RESULTS) reaching.push({ word: w, rank: full });
    if (full !== 0) matching++;
    if (ranks.score[k]! > 0) scored.push({ w, i: k - from, score: ranks.score[k]!, rank: full });
  }
  // Stable: equal ranks keep the order tried (name words before description words).
  const best = [...reaching].sort((a, b) => a.rank - b.rank).slice(0, BEST_WORDS);
  let closest: { word: string; rank: number } | null = null;
  const findings: LintFinding[] = [];
  if (reaching.length === 0 && tried.length > 0) {
    // Of the words that score highest on the tool, the one ranking it best.
    const strongest = scored.sort((a, b) => b.score - a.score || a.i - b.i).slice(0, CLOSEST_CANDIDATES);
    for (const { w, rank } of strongest) if (closest === null || rank < closest.rank) closest = { word: w, rank };
    const near = closest ? `; the closest is "${closest.word}" at rank ${closest.rank}` : '';
    const crowd = closest ? [...ranks.top[ranks.tried[from + tried.indexOf(closest.word)]!]!] : [];
    const none =
      tried.length === 1
        ? 'the only word of its name and description does not return'
        : `none of the ${tried.length} words of its name and description returns`;
    findings.push(finding('crowded-out', `${none} it within max_results ${DEFAULT_MAX_RESULTS}${near}`, crowd));
  }
  return {
    check: {
      words_tried: tried.length,
      words_reaching: reaching.length,
      best,
      closest,
      words_matching: matching,
      // Made when read (a report, a renderer), from the ranks' typed arrays: one object per
      // tool and word, held for the whole report, would be most of a large catalog's lint.
      get words() {
        return ranks.wordsOf(from, to);
      },
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
            `word inside it scores only ${RULES['part-substring'].points} (inside a part), never ` +
            `${RULES['exact-part'].points}`,
        ),
      );
    }
    if (sep) {
      const inner = textWords(p);
      const example =
        inner.length > 1
          ? `: the keyword "${inner[inner.length - 1]}" scores ${RULES['part-substring'].points} (inside the part), ` +
            `not ${RULES['exact-part'].points}`
          : '';
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

/** Options of {@link lintCatalog}. */
export interface LintOptions {
  /** Called as the tools are checked, one by one: `done` of `total` (a host's progress line). */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Lints the dynamic tools of a catalog (static tools are never searched;
 * they only take part in the case-collision check).
 */
export function lintCatalog(
  catalog: Catalog,
  limits: LintLimits = DEFAULT_LINT_LIMITS,
  options: LintOptions = {},
): LintReport {
  const onProgress = options.onProgress;
  const dynamic = catalog.tools.filter((t) => !t.static);
  const statics = catalog.tools.filter((t) => t.static);
  const index = new ToolIndex(dynamic);
  const names = dynamic.map((t) => t.name);
  const searcher = new Searcher(index, names);
  const findingsOf = new Map<string, LintFinding[]>(dynamic.map((t) => [t.name, []]));
  const add = (name: string, f: LintFinding): void => {
    findingsOf.get(name)?.push(f);
  };
  const groups: LintGroup[] = [];
  /** One group finding per member: the group listed once, each member naming a few of the others. */
  type Others = { readonly first: CatalogTool[]; readonly count: number };
  const addGroup = (
    rule: LintGroup['rule'],
    members: readonly CatalogTool[],
    message: (others: string) => string,
    othersOf: (t: CatalogTool) => Others,
    label: (o: CatalogTool) => string = (o) => o.name,
  ): void => {
    const g = groups.length;
    groups.push({ rule, tools: members.map((m) => m.name) });
    // Most members of a large group name the same few others: one finding serves them all.
    const made = new Map<string, LintFinding>();
    for (const t of members) {
      if (findingsOf.get(t.name) === undefined) continue;
      // The first few others, without listing the whole group for each member.
      const others = othersOf(t);
      if (others.count === 0) continue;
      const related = others.first.map((o) => o.name);
      const key = `${others.count}\u0000${related.join('\u0000')}`;
      let f = made.get(key);
      if (f === undefined) {
        f = finding(rule, message(someNames(others.first.map(label), others.count)), related, g);
        made.set(key, f);
      }
      add(t.name, f);
    }
  };
  /**
   * The first RELATED_MAX members other than `t` that `keep` accepts, and how
   * many there are: `keep(o)` is false for few members (at most the case
   * variants of a name), so the count is the group's size minus those, and
   * the loop stops after the first few.
   */
  const firstOthers =
    (group: readonly CatalogTool[], keep: (o: CatalogTool) => boolean, dropped: (t: CatalogTool) => number) =>
    (t: CatalogTool): Others => {
      const first: CatalogTool[] = [];
      for (const o of group) {
        if (first.length === RELATED_MAX) break;
        if (o !== t && keep(o)) first.push(o);
      }
      return { first, count: group.length - 1 - dropped(t) };
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
    addGroup(
      'case-collision',
      group,
      (others) => `its name differs only in case from ${others}`,
      firstOthers(
        group,
        () => true,
        () => 0,
      ),
      (o) => (o.static ? `${o.name} (static)` : o.name),
    );
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
    if (group.length < 2) continue;
    const parts = (index.partsOf(group[0]!.name) ?? []).map(goToLower).join(' ');
    // Case variants of one name are the case-collision rule's; count the others by their lower-cased name.
    const byName = new Map<string, number>();
    for (const o of group) byName.set(goToLower(o.name), (byName.get(goToLower(o.name)) ?? 0) + 1);
    if (byName.size < 2) continue;
    addGroup(
      'identical-name-parts',
      group,
      (others) => `its name parts (${parts}) are those of ${others}: only the descriptions tell them apart`,
      (t) => {
        const lower = goToLower(t.name);
        return firstOthers(
          group,
          (o) => goToLower(o.name) !== lower,
          () => byName.get(lower)! - 1,
        )(t);
      },
    );
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
          `the description is empty: the description rule (${RULES.description.points} points) never matches, ` +
            'only name keywords find it',
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
    addGroup(
      'duplicate-description',
      group,
      (others) => `its description is the same as that of ${others}`,
      firstOthers(
        group,
        () => true,
        () => 0,
      ),
    );
  }
  const lengths = dynamic.filter((t) => t.description !== '').map((t) => length(t.description));
  const med = median(lengths);
  const longThreshold = Math.max(limits.longDescriptionMin, limits.longDescriptionFactor * med);
  // Every word of 3 characters or more of any description, matched inside the long descriptions' words.
  let vocabulary: { matcher: VocabularyMatcher; size: number } | null = null;
  for (const t of dynamic) {
    const n = length(t.description);
    if (n < longThreshold) continue;
    if (vocabulary === null) {
      const words = new Set<string>();
      for (const d of byDesc.values()) for (const w of textWords(d[0]!.description)) if (length(w) >= 3) words.add(w);
      vocabulary = { matcher: new VocabularyMatcher(words), size: words.size };
    }
    const hits = vocabulary.matcher.hits(t.description);
    const size = vocabulary.size;
    const share = size === 0 ? 0 : Math.round((100 * hits) / size);
    add(
      t.name,
      finding(
        'long-description',
        `the description has ${n} characters (median ${Math.round(med)}); it contains ${hits} of the ${size} ` +
          `words of all descriptions (${share}%), so it matches (${RULES.description.points} points) most queries ` +
          'that miss the names',
      ),
    );
  }

  // Reach and own name: one ranking per distinct word, one intersection per distinct own-name query.
  const partsOf = dynamic.map((t) => index.partsOf(t.name) ?? []);
  // Which tools the own-name shortcut answers (their keywords are parsed again when checked: cheap,
  // and not held for every tool meanwhile).
  const ownAnswers = new Uint8Array(dynamic.length);
  const exactWords = new Set<string>();
  dynamic.forEach((t, i) => {
    const kws = OwnNameRanks.keywordsOf(index, t, partsOf[i]!);
    if (kws === null) return;
    ownAnswers[i] = 1;
    for (const k of kws) exactWords.add(k.lower);
  });
  const ranks = new WordRanks(index, names, (t) => candidateWords(dynamic[t]!, partsOf[t]!), exactWords);
  const own = new OwnNameRanks(ranks);

  onProgress?.(0, dynamic.length);
  const tools: ToolLint[] = dynamic.map((t, i) => {
    const parts = partsOf[i]!;
    const kws = ownAnswers[i] === 1 ? parseKeywords(parts.join(' ')) : null;
    const ownName = (kws ? own.check(t, i, parts, kws, names) : null) ?? checkOwnName(searcher, t, parts);
    const reach = checkReach(searcher, ranks, i, t);
    const findings = [
      ...ownName.findings,
      ...reach.findings,
      ...checkNameShape(t, parts, limits),
      ...findingsOf.get(t.name)!,
    ];
    sortFindings(findings);
    const errors = findings.filter((f) => f.severity === 'error').length;
    onProgress?.(i + 1, dynamic.length);
    return {
      name: t.name,
      source: t.source,
      parts,
      own_name: ownName.check,
      reach: reach.check,
      findings,
      errors,
      warnings: findings.length - errors,
    };
  });
  sortTools(tools);

  return {
    catalog: { source: catalog.sources.map((s) => s.file).join(', '), dynamic: dynamic.length, static: statics.length },
    limits,
    tools,
    groups,
    summary: lintSummary(tools),
  };
}

const RULE_ORDER = Object.keys(LINT_RULES) as LintRule[];

/** A tool's findings in the report's order, the order of {@link LINT_RULES} (its errors come first). */
export function sortFindings(findings: LintFinding[]): void {
  findings.sort((a, b) => RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule));
}

/**
 * The report's tools in its order, the reference's lint and another engine's alike: most errors, then most
 * warnings, then by name in Go's byte order.
 */
export function sortTools(tools: ToolLint[]): void {
  tools.sort((a, b) => b.errors - a.errors || b.warnings - a.warnings || compareGo(a.name, b.name));
}

/** The report's summary of its tools' findings (the reference's lint and another engine's alike). */
export function lintSummary(tools: readonly ToolLint[]): LintReport['summary'] {
  const byRule = Object.fromEntries(RULE_ORDER.map((r) => [r, 0])) as Record<LintRule, number>;
  for (const t of tools) for (const f of t.findings) byRule[f.rule]++;
  return {
    tools: tools.length,
    errors: tools.reduce((a, t) => a + t.errors, 0),
    warnings: tools.reduce((a, t) => a + t.warnings, 0),
    clean: tools.filter((t) => t.findings.length === 0).length,
    own_name_first: tools.filter((t) => t.own_name.rank === 1).length,
    by_rule: byRule,
  };
}
