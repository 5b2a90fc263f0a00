/** Data of `toolsearch lint`: findings per dynamic tool (the `--json` contract). */
import { RULES } from '../../core/scorer.js';
import type { SourceLocation } from '../../io/errors.js';

/** The rules, their severity and what they mean. */
export const LINT_RULES = {
  'own-name-missed': {
    severity: 'error',
    summary: 'a query of its own name parts does not return it within max_results 5',
  },
  'crowded-out': {
    severity: 'error',
    summary: 'no single word of its name or description returns it within max_results 5',
  },
  'no-name-parts': {
    severity: 'error',
    summary: 'the name splits into no parts: no keyword can ever match it by name',
  },
  'case-collision': { severity: 'error', summary: 'another tool has the same name up to case' },
  'own-name-not-first': { severity: 'warning', summary: 'a query of its own name parts returns it, but not first' },
  'identical-name-parts': {
    severity: 'warning',
    summary: 'another tool has the same name parts (up to case): name queries cannot tell them apart',
  },
  'empty-name-pieces': {
    severity: 'warning',
    summary: 'the name has empty pieces around underscores, which the reference drops',
  },
  'giant-name-part': {
    severity: 'warning',
    summary:
      `a name part is very long: only substrings of it (${RULES['part-substring'].points} points) ` +
      'can match inside it',
  },
  'unsplit-separator': {
    severity: 'warning',
    summary: 'a name part holds a separator the reference does not split on (-, ., /, …)',
  },
  'empty-description': { severity: 'warning', summary: 'empty description: only its name can be matched' },
  'duplicate-description': { severity: 'warning', summary: 'another tool has the same description' },
  'long-description': {
    severity: 'warning',
    summary: 'the description is so long that it matches most description-only keywords',
  },
} as const;

export type LintRule = keyof typeof LINT_RULES;
export type LintSeverity = 'error' | 'warning';

/** One finding about one tool. */
export interface LintFinding {
  readonly rule: LintRule;
  readonly severity: LintSeverity;
  readonly message: string;
  /** Other tools the finding is about (collisions, duplicates, who ranks first); at most 5 for a group. */
  readonly related: readonly string[];
  /**
   * For a finding about a group of tools (same name up to case, same name parts, same description): its index in
   * `groups`.
   */
  readonly group?: number;
}

/** Tools that share a name up to case, their name parts or their description: listed once, not per pair. */
export interface LintGroup {
  readonly rule: 'case-collision' | 'identical-name-parts' | 'duplicate-description';
  /** Every member, in catalog order (static tools included for case-collision). */
  readonly tools: readonly string[];
}

/** How the tool's own name finds it. */
export interface OwnNameCheck {
  /** The query: the tool's name parts joined by spaces. */
  readonly query: string;
  /** Its rank in the result (max_results 5), or null when not returned. */
  readonly rank: number | null;
  /** Its rank in the full ranking (no max_results cut), or null when it scores 0. */
  readonly full_rank: number | null;
  readonly score: number;
  /** The tool ranked first and its score, when it is another tool. */
  readonly first: { readonly name: string; readonly score: number } | null;
}

/** Which single words reach the tool. */
export interface ReachCheck {
  /** Distinct words of its name and description tried as a one-word query. */
  readonly words_tried: number;
  /** How many of them return it within max_results 5. */
  readonly words_reaching: number;
  /** The best of those (lowest rank first), at most 3. */
  readonly best: ReadonlyArray<{ readonly word: string; readonly rank: number }>;
  /** When none reaches it: the word that ranks it best in the full ranking (of the 5 words scoring highest on it). */
  readonly closest: { readonly word: string; readonly rank: number } | null;
  /** How many of the words tried return it at any rank (the tool scores above 0 for the word). */
  readonly words_matching: number;
  /**
   * Every word tried, in the order tried (name parts, name words, then
   * description words), with the tool's rank in a search for that word
   * alone without the max_results cut: 1..5 reaches it, above 5 returns
   * it only with a larger max_results, null when the word never returns it.
   */
  readonly words: ReadonlyArray<{ readonly word: string; readonly rank: number | null }>;
}

/** Everything found about one dynamic tool. */
export interface ToolLint {
  readonly name: string;
  readonly source: SourceLocation;
  /** Name parts as the reference splits the name. */
  readonly parts: readonly string[];
  readonly own_name: OwnNameCheck;
  readonly reach: ReachCheck;
  readonly findings: readonly LintFinding[];
  readonly errors: number;
  readonly warnings: number;
}

/** Thresholds of the heuristic rules. */
export interface LintLimits {
  /** A name part longer than this many code points is a giant part. */
  readonly giantPart: number;
  /** A description is long when it has at least this many code points… */
  readonly longDescriptionMin: number;
  /** …and at least this many times the median description length. */
  readonly longDescriptionFactor: number;
}

export const DEFAULT_LINT_LIMITS: LintLimits = Object.freeze({
  giantPart: 20,
  longDescriptionMin: 500,
  longDescriptionFactor: 3,
});

/** The whole report. */
export interface LintReport {
  readonly catalog: { readonly source: string; readonly dynamic: number; readonly static: number };
  readonly limits: LintLimits;
  /** Dynamic tools, worst first (most errors, then most warnings, then by name). */
  readonly tools: readonly ToolLint[];
  /** The groups the group findings refer to (`LintFinding.group`). */
  readonly groups: readonly LintGroup[];
  readonly summary: {
    readonly tools: number;
    readonly errors: number;
    readonly warnings: number;
    /** Tools with no finding. */
    readonly clean: number;
    /** Tools whose own-name query ranks them first. */
    readonly own_name_first: number;
    /** Findings per rule (every rule listed, 0 when none). */
    readonly by_rule: { readonly [R in LintRule]: number };
  };
}
