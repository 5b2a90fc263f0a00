/**
 * Keyword scoring (SPEC §3), with an index built once per catalog.
 *
 * The reference re-splits and re-lower-cases every tool for every query; the
 * index does that work once. The score of a keyword is computed in exactly one
 * place ({@link ToolIndex.scoreKeyword}); explanations read what that
 * computation found, so they can never disagree with the score.
 */
import { splitToolName } from './names.js';
import { compareGo, goFields, goToLower } from './text.js';
import type { ToolInfo } from './types.js';

/** The scoring rules, strongest first; a keyword scores the maximum rule that holds (not the sum). */
export const RULES = {
  'exact-part': { points: 10, summary: 'keyword equals a name part' },
  'part-substring': { points: 5, summary: 'keyword is inside a name part' },
  'name-substring': { points: 3, summary: 'keyword is inside the full name' },
  description: { points: 2, summary: 'keyword is inside the description' },
  none: { points: 0, summary: 'no rule holds' },
} as const;

/** Which rule decided a keyword's score. */
export type Rule = keyof typeof RULES;

/** A parsed query keyword. */
export interface Keyword {
  /** The keyword as written, without its `+`. */
  readonly word: string;
  /** Go-lower-cased `word`, what is matched. */
  readonly lower: string;
  /** Written with a leading `+`: a tool must match it to be returned. */
  readonly required: boolean;
}

/**
 * Splits a query into keywords: Go `strings.Fields`; a leading `+` marks a
 * required keyword and exactly one `+` is removed (`++x` is the required
 * keyword `+x`); a lone `+` is dropped.
 */
export function parseKeywords(query: string): Keyword[] {
  const out: Keyword[] = [];
  for (const field of goFields(query)) {
    if (field.startsWith('+')) {
      const word = field.slice(1);
      if (word !== '') out.push({ word, lower: goToLower(word), required: true });
    } else {
      out.push({ word: field, lower: goToLower(field), required: false });
    }
  }
  return out;
}

/** How one keyword scored against one tool. */
export interface KeywordScore {
  readonly keyword: string;
  readonly required: boolean;
  readonly rule: Rule;
  /** The name part the rule hit (as written in the name), for `exact-part` and `part-substring`; otherwise null. */
  readonly part: string | null;
  readonly points: number;
}

/** A scored tool; `explain` is present when asked for. */
export interface ScoredTool {
  readonly name: string;
  readonly score: number;
  readonly explain?: readonly KeywordScore[];
}

/** The full account of one tool against one query, whether or not it is returned. */
export interface ToolExplanation {
  readonly name: string;
  /** Sum of the keyword points (0 when excluded). */
  readonly score: number;
  /** A required keyword scored 0: the reference drops the tool whatever its other points. */
  readonly excludedBy: string | null;
  readonly keywords: readonly KeywordScore[];
}

interface IndexedTool {
  readonly info: ToolInfo;
  readonly nameLower: string;
  readonly parts: readonly string[];
  readonly partsLower: readonly string[];
  readonly descLower: string;
  /** Position of the name in Go (UTF-8 byte) order, so ties sort by an integer compare. */
  rank: number;
}

/**
 * A catalog prepared for keyword search: names split and lower-cased, and
 * descriptions lower-cased, once. Immutable after construction. Names must
 * be unique (the reference keys its tools by name).
 */
export class ToolIndex {
  private readonly entries: IndexedTool[];
  private readonly byName: Map<string, number>;
  // Scratch output of scoreKeyword: index of the part that decided the rule (-1 for none).
  private hitPart = -1;

  constructor(tools: readonly ToolInfo[]) {
    this.entries = [];
    this.byName = new Map();
    for (const info of tools) {
      if (this.byName.has(info.name)) throw new Error(`duplicate dynamic tool name: ${info.name}`);
      const parts = splitToolName(info.name);
      this.byName.set(info.name, this.entries.length);
      this.entries.push({
        info,
        nameLower: goToLower(info.name),
        parts,
        partsLower: parts.map(goToLower),
        descLower: goToLower(info.description),
        rank: 0,
      });
    }
    const order = this.entries.map((_, i) => i).sort((a, b) => compareGo(this.entries[a]!.info.name, this.entries[b]!.info.name));
    order.forEach((entry, rank) => {
      this.entries[entry]!.rank = rank;
    });
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.entries.length;
  }

  /** The tools in catalog order. */
  tools(): ToolInfo[] {
    return this.entries.map((e) => e.info);
  }

  /** Whether a tool of exactly this name (case-sensitive) is indexed. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The tool of exactly this name, if any. */
  get(name: string): ToolInfo | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.entries[i]!.info;
  }

  /** The name parts of a tool, as the scorer sees them. */
  partsOf(name: string): readonly string[] | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.entries[i]!.parts;
  }

  /**
   * The one scoring computation: points of keyword `kw` (already lower-cased)
   * against tool `t`, and in {@link hitPart} the part that decided it.
   */
  private scoreKeyword(t: IndexedTool, kw: string): number {
    this.hitPart = -1;
    // Every lower-cased name part is a substring of the lower-cased name, so
    // when the name does not contain the keyword no name rule can hold.
    if (t.nameLower.includes(kw)) {
      const parts = t.partsLower;
      let substringPart = -1;
      for (let p = 0; p < parts.length; p++) {
        const part = parts[p]!;
        if (part === kw) {
          this.hitPart = p;
          return 10;
        }
        if (substringPart < 0 && part.includes(kw)) substringPart = p;
      }
      if (substringPart >= 0) {
        this.hitPart = substringPart;
        return 5;
      }
      return 3;
    }
    return t.descLower !== '' && t.descLower.includes(kw) ? 2 : 0;
  }

  private keywordScore(t: IndexedTool, kw: Keyword, points: number): KeywordScore {
    const rule: Rule = points === 10 ? 'exact-part' : points === 5 ? 'part-substring' : points === 3 ? 'name-substring' : points === 2 ? 'description' : 'none';
    return {
      keyword: kw.word,
      required: kw.required,
      rule,
      part: this.hitPart >= 0 ? t.parts[this.hitPart]! : null,
      points,
    };
  }

  /**
   * Keyword search (SPEC §3): tools scored by the sum of their keywords'
   * points, tools failing a required keyword or scoring 0 dropped, ordered by
   * score descending then name in Go byte order, the first `maxResults` kept.
   */
  search(keywords: readonly Keyword[], maxResults: number, options: { explain?: boolean } = {}): ScoredTool[] {
    if (keywords.length === 0) return [];
    const scored: Array<{ e: IndexedTool; score: number }> = [];
    const entries = this.entries;
    const kws = keywords.map((k) => k.lower);
    const required = keywords.map((k) => k.required);
    outer: for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      let total = 0;
      for (let k = 0; k < kws.length; k++) {
        const pts = this.scoreKeyword(e, kws[k]!);
        if (pts === 0 && required[k]) continue outer;
        total += pts;
      }
      if (total > 0) scored.push({ e, score: total });
    }
    scored.sort((a, b) => b.score - a.score || a.e.rank - b.e.rank);
    const top = scored.length > maxResults ? scored.slice(0, Math.max(0, maxResults)) : scored;
    return top.map(({ e, score }) => {
      if (!options.explain) return { name: e.info.name, score };
      return { name: e.info.name, score, explain: this.explainEntry(e, keywords).keywords };
    });
  }

  private explainEntry(e: IndexedTool, keywords: readonly Keyword[]): ToolExplanation {
    const out: KeywordScore[] = [];
    let total = 0;
    let excludedBy: string | null = null;
    for (const kw of keywords) {
      const pts = this.scoreKeyword(e, kw.lower);
      out.push(this.keywordScore(e, kw, pts));
      if (pts === 0 && kw.required && excludedBy === null) excludedBy = kw.word;
      total += pts;
    }
    return { name: e.info.name, score: excludedBy === null ? total : 0, excludedBy, keywords: out };
  }

  /** Why a tool scores what it does for these keywords (for any tool, returned or not); undefined for an unknown name. */
  explainTool(name: string, keywords: readonly Keyword[]): ToolExplanation | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.explainEntry(this.entries[i]!, keywords);
  }

  /**
   * The full ranking: every tool with a positive score, in result order,
   * without the `maxResults` cut (for "at which rank would it appear?").
   */
  rankAll(keywords: readonly Keyword[]): ScoredTool[] {
    return this.search(keywords, Number.MAX_SAFE_INTEGER);
  }
}
