/**
 * The query planner and the term-at-a-time scorer over a {@link TokenIndex}.
 *
 * A plan says how the tools a keyword can match are found; the scorer adds
 * each keyword's points (a rule's points from `RULES`, or `scoreKeyword` on
 * the text when the lists only give candidates) to the tools it matches.
 */
import { RULES, scoreKeyword, type Keyword, type PreparedTool } from '../scorer.js';
import { isSeparator, type TokenIndex } from './token-index.js';

/** How the tools a keyword can match are found (Plan.*). */
type Plan = number;
const Plan = {
  /** Exactly the tools of the matched parts' and tokens' posting lists. */
  Tokens: 0,
  /** A superset (the tokens of a piece of the keyword); each candidate is checked on its text. */
  Candidates: 1,
  /** Every tool, each checked on its text. */
  All: 2,
} as const;

interface KeywordPlan {
  readonly kw: string;
  readonly required: boolean;
  readonly plan: Plan;
  /** Plan.Tokens: the name parts containing the keyword (the equal one first, when `exactPart`). */
  readonly parts: number[];
  readonly exactPart: boolean;
  /** The text tokens containing the keyword (Plan.Tokens) or its longest piece (Plan.Candidates). */
  readonly tokens: number[];
  /** Estimated work: posting entries, or checks of whole texts weighted as such. */
  readonly cost: number;
}

/** A whole-text check costs about this many posting-entry visits. */
const TEXT_CHECK_COST = 8;

function planKeyword(tokens: TokenIndex, kw: Keyword, n: number): KeywordPlan {
  const s = kw.lower;
  const all: KeywordPlan = { kw: s, required: kw.required, plan: Plan.All, parts: [], exactPart: false, tokens: [], cost: n * TEXT_CHECK_COST };
  if (s === '' || s.includes('\n')) return all;
  // The longest run without separators; the keyword itself when it has none.
  let best = '';
  let whole = true;
  for (let i = 0; i < s.length; ) {
    while (i < s.length && isSeparator(s.charCodeAt(i))) {
      whole = false;
      i++;
    }
    const start = i;
    while (i < s.length && !isSeparator(s.charCodeAt(i))) i++;
    if (i - start > best.length) best = s.slice(start, i);
  }
  if (best === '') return all;
  const ids: number[] = [];
  if (!whole) {
    const entriesIn = tokens.matching('tokens', best, ids, n);
    if (entriesIn < 0) return all;
    return { ...all, plan: Plan.Candidates, tokens: ids, cost: entriesIn * TEXT_CHECK_COST };
  }
  const parts: number[] = [];
  const inParts = tokens.matching('parts', s, parts, 16 * n);
  const inTokens = inParts < 0 ? -1 : tokens.matching('tokens', s, ids, 16 * n);
  if (inTokens < 0) return all;
  const exactPart = parts.length > 0 && tokens.parts[parts[0]!] === s;
  return { ...all, plan: Plan.Tokens, parts, exactPart, tokens: ids, cost: inParts + inTokens };
}

/**
 * Term-at-a-time scoring with typed arrays allocated once per index (no
 * allocation per tool): each keyword adds its points to the tools it can
 * match (found through the token index), then the tools that met every
 * required keyword are kept.
 */
export class TermScorer {
  private readonly toolStamp: Int32Array;
  private readonly kwStamp: Int32Array;
  private readonly acc: Int32Array;
  private readonly reqHits: Int32Array;
  private readonly touched: Int32Array;
  private epoch = 0;
  private kwSerial = 0;

  constructor(
    private readonly tokens: TokenIndex,
    private readonly entries: readonly PreparedTool[],
  ) {
    const n = entries.length;
    this.toolStamp = new Int32Array(n);
    this.kwStamp = new Int32Array(n);
    this.acc = new Int32Array(n);
    this.reqHits = new Int32Array(n);
    this.touched = new Int32Array(n);
  }

  /**
   * Scores the keywords; calls `keep(tool, score)` for every tool kept. With
   * required keywords, the cheapest one goes first and bounds the tools every
   * other keyword looks at. A query of one keyword stops between rules once
   * `limit` tools are in (later rules give fewer points).
   */
  score(keywords: readonly Keyword[], limit: number, keep: (tool: number, score: number) => void): void {
    const plans = keywords.map((k) => planKeyword(this.tokens, k, this.entries.length));
    const requiredCount = plans.reduce((c, p) => c + (p.required ? 1 : 0), 0);
    if (requiredCount > 0) {
      // Required first, cheapest first; the rest keep their order.
      plans.sort((a, b) => (a.required === b.required ? (a.required ? a.cost - b.cost : 0) : a.required ? -1 : 1));
    }
    if (++this.epoch === 0x7fffffff) {
      this.toolStamp.fill(0);
      this.epoch = 1;
    }
    let touched = 0;
    for (let k = 0; k < plans.length; k++) {
      const bounded = requiredCount > 0 && k > 0;
      if (bounded && touched === 0) return;
      touched = this.addKeyword(plans[k]!, bounded, touched, plans.length === 1 ? limit : Infinity);
    }
    const list = this.touched;
    const acc = this.acc;
    const reqHits = this.reqHits;
    for (let i = 0; i < touched; i++) {
      const t = list[i]!;
      if (reqHits[t] === requiredCount && acc[t]! > 0) keep(t, acc[t]!);
    }
  }

  /**
   * Adds one keyword's points to the tools it matches. When `bounded`, only
   * tools already touched count (a tool the first required keyword missed is
   * excluded anyway). With `limit` (a query of this one keyword), stops once
   * `limit` tools have the points of the lists done so far: later lists give
   * fewer. Returns the new number of touched tools.
   */
  private addKeyword(p: KeywordPlan, bounded: boolean, touched: number, limit: number): number {
    const entries = this.entries;
    this.kwSerial = this.kwSerial === 0x7ffffffe ? this.resetSerial() : this.kwSerial + 1;
    // Few tools left and many postings: check those tools' texts directly.
    if (p.plan === Plan.All || (bounded && touched * TEXT_CHECK_COST < p.cost)) {
      const list = this.touched;
      const count = bounded ? touched : entries.length;
      for (let i = 0; i < count; i++) {
        const t = bounded ? list[i]! : i;
        const pts = scoreKeyword(entries[t]!, p.kw).points;
        if (pts > 0) touched = this.addPoints(t, pts, p.required, touched);
      }
      return touched;
    }
    const { partOff, partPost, nameOff, namePost, descOff, descPost } = this.tokens;
    if (p.plan === Plan.Candidates) {
      for (const id of p.tokens) touched = this.visit(namePost, nameOff[id]!, nameOff[id + 1]!, p, -1, bounded, touched);
      for (const id of p.tokens) touched = this.visit(descPost, descOff[id]!, descOff[id + 1]!, p, -1, bounded, touched);
      return touched;
    }
    // Every list is exact, and a tool takes the rule of the first list it is
    // in: a part equal to the keyword, a part containing it, a name
    // containing it (no part does), a description containing it (the name
    // does not). A single keyword stops between rules once `limit` tools are in.
    const ids = p.parts;
    const first = p.exactPart ? 1 : 0;
    if (p.exactPart) {
      touched = this.visit(partPost, partOff[ids[0]!]!, partOff[ids[0]! + 1]!, p, RULES['exact-part'].points, bounded, touched);
      if (touched >= limit) return touched;
    }
    const partRule = RULES['part-substring'].points;
    for (let i = first; i < ids.length; i++) touched = this.visit(partPost, partOff[ids[i]!]!, partOff[ids[i]! + 1]!, p, partRule, bounded, touched);
    if (touched >= limit) return touched;
    const nameRule = RULES['name-substring'].points;
    for (const id of p.tokens) touched = this.visit(namePost, nameOff[id]!, nameOff[id + 1]!, p, nameRule, bounded, touched);
    if (touched >= limit) return touched;
    const descRule = RULES.description.points;
    for (const id of p.tokens) touched = this.visit(descPost, descOff[id]!, descOff[id + 1]!, p, descRule, bounded, touched);
    return touched;
  }

  /** Visits post[from..to): each tool once per keyword; `pts` < 0 means score its text. */
  private visit(post: Int32Array, from: number, to: number, p: KeywordPlan, pts: number, bounded: boolean, touched: number): number {
    const kwStamp = this.kwStamp;
    const toolStamp = this.toolStamp;
    const serial = this.kwSerial;
    const epoch = this.epoch;
    for (let i = from; i < to; i++) {
      const t = post[i]!;
      if (kwStamp[t] === serial) continue;
      kwStamp[t] = serial;
      if (bounded && toolStamp[t] !== epoch) continue;
      const points = pts >= 0 ? pts : scoreKeyword(this.entries[t]!, p.kw).points;
      if (points > 0) touched = this.addPoints(t, points, p.required, touched);
    }
    return touched;
  }

  private addPoints(t: number, pts: number, required: boolean, touched: number): number {
    if (this.toolStamp[t] !== this.epoch) {
      this.toolStamp[t] = this.epoch;
      this.acc[t] = 0;
      this.reqHits[t] = 0;
      this.touched[touched++] = t;
    }
    this.acc[t]! += pts;
    if (required) this.reqHits[t]!++;
    return touched;
  }

  private resetSerial(): number {
    this.kwStamp.fill(0);
    return 1;
  }
}
