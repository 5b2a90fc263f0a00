/**
 * Keyword scoring (SPEC §3): the rules of the reference and nothing else.
 *
 * Keywords are parsed here, a tool is prepared here (name split, name and
 * description lower-cased once), and one keyword is scored against one tool
 * in exactly one place, {@link scoreKeyword}. The search engine
 * (`index/`) only decides which tools to look at; every point it adds is a
 * rule's points from {@link RULES}.
 */
import { splitToolName } from './names.js';
import { goFields, goToLower, toLowerCodePoint } from './text.js';
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

/** The rules that score, strongest first, in words (`10: keyword equals a name part`): for help and reports. */
export const RULES_IN_WORDS: readonly string[] = (Object.keys(RULES) as Rule[])
  .filter((r) => RULES[r].points > 0)
  .map((r) => `${RULES[r].points}: ${RULES[r].summary}`);

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

/** A tool as the rules see it, prepared once per catalog. */
export interface PreparedTool {
  readonly info: ToolInfo;
  /**
   * Go-lower-cased name, a line feed, Go-lower-cased description: the one
   * string a keyword is searched in. A keyword never contains a line feed (it
   * is Go white space), so an occurrence lies wholly in the name (it starts
   * before {@link nameLength}) or wholly in the description.
   */
  readonly text: string;
  /** Length of the lower-cased name in `text`. */
  readonly nameLength: number;
  /** Name parts as written, and lower-cased (the same array when lower-casing changes nothing). */
  readonly parts: readonly string[];
  readonly partsLower: readonly string[];
}

// Code unit classes (no `u` flag: these match UTF-16 code units).
const NON_ASCII = /[^\0-\x7f]/;

/**
 * `goToLower` as one flat string: for ASCII text Go's `strings.ToLower` and
 * JavaScript's `toLowerCase` agree (A–Z only); otherwise each code point is
 * mapped by Go's simple mapping, as `goToLower` does.
 */
function lowerFlat(s: string): string {
  if (!NON_ASCII.test(s)) return s.toLowerCase();
  const units: number[] = [];
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const lc = toLowerCodePoint(cp);
    if (lc > 0xffff) units.push(0xd800 + ((lc - 0x10000) >> 10), 0xdc00 + ((lc - 0x10000) & 0x3ff));
    else units.push(lc);
    i += cp > 0xffff ? 2 : 1;
  }
  let out = '';
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
  return out;
}

/** Splits and lower-cases a tool once, for every later keyword. */
export function prepareTool(info: ToolInfo): PreparedTool {
  const parts = splitToolName(info.name);
  const lowered = parts.map(lowerFlat);
  return {
    info,
    // Lower-casing maps code point by code point, so this is the lower-cased
    // name, a line feed and the lower-cased description, in one flat string.
    text: lowerFlat(`${info.name}\n${info.description}`),
    nameLength: NON_ASCII.test(info.name) ? lowerFlat(info.name).length : info.name.length,
    parts,
    partsLower: lowered.every((p, i) => p === parts[i]) ? parts : lowered,
  };
}

/** The rule that decided a keyword against a tool, its points, and the name part it hit (as written) or null. */
export interface KeywordHit {
  readonly rule: Rule;
  readonly part: string | null;
  readonly points: number;
}

const hit = (rule: Rule, part: string | null = null): KeywordHit => ({ rule, part, points: RULES[rule].points });
const NO_HIT = hit('none');
const NAME_HIT = hit('name-substring');
const DESCRIPTION_HIT = hit('description');

/** Where keyword `kw` occurs in `t`: in the name (true), only in the description (false), nowhere (null). */
function inName(t: PreparedTool, kw: string): boolean | null {
  if (kw === '' || kw.includes('\n')) {
    // Not a keyword the parser produces: test name and description on their own.
    if (t.text.slice(0, t.nameLength).includes(kw)) return true;
    const desc = t.text.slice(t.nameLength + 1);
    return desc !== '' && desc.includes(kw) ? false : null;
  }
  // The first occurrence cannot straddle the line feed after the name.
  const at = t.text.indexOf(kw);
  return at < 0 ? null : at < t.nameLength;
}

/**
 * The one scoring computation: the rule keyword `kw` (already lower-cased)
 * meets in tool `t`, the strongest that holds. Every lower-cased name part is
 * a substring of the lower-cased name, so when the name does not contain the
 * keyword no name rule can hold; an empty description contains nothing.
 */
export function scoreKeyword(t: PreparedTool, kw: string): KeywordHit {
  const where = inName(t, kw);
  if (where === null) return NO_HIT;
  if (!where) return DESCRIPTION_HIT;
  const parts = t.partsLower;
  let substringPart = -1;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part === kw) return hit('exact-part', t.parts[p]!);
    if (substringPart < 0 && part.includes(kw)) substringPart = p;
  }
  return substringPart >= 0 ? hit('part-substring', t.parts[substringPart]!) : NAME_HIT;
}

/** Why a tool scores what it does for these keywords: one {@link scoreKeyword} per keyword, summed. */
export function explainTool(t: PreparedTool, keywords: readonly Keyword[]): ToolExplanation {
  const out: KeywordScore[] = [];
  let total = 0;
  let excludedBy: string | null = null;
  for (const kw of keywords) {
    const { rule, part, points } = scoreKeyword(t, kw.lower);
    out.push({ keyword: kw.word, required: kw.required, rule, part, points });
    if (points === 0 && kw.required && excludedBy === null) excludedBy = kw.word;
    total += points;
  }
  return { name: t.info.name, score: excludedBy === null ? total : 0, excludedBy, keywords: out };
}
