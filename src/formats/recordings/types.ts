/**
 * The shape every recording reader has (one family per file in this
 * folder, listed once in registry.ts): `detect` returns the evidence that a
 * document is in its format (or null), `read` fills a builder with the
 * conversation(s) and the coverage: items read, items skipped by which
 * documented rule, and what no rule explains.
 */
import type { ParsedDocument } from '../../io/nodes.js';
import type { Limits } from '../../io/read.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import type { TranscriptFormat } from '../types.js';

/** Why a reader thinks a document is its format. */
export interface Evidence {
  /**
   * How strong: a distinctive envelope or part type of the format scores
   * 1000 and more; keys and part types several chat formats share score by
   * how many items have them; a bare fallback scores below 1.
   */
  readonly score: number;
  /** What was found, for `coverage.detected_by` (e.g. `12 lines with "type":"assistant" and "message"`). */
  readonly detected_by: string;
}

/**
 * What a reader makes of a document it does not take (its `detect` gave null): the signs of its
 * family the document has, and what the reader expects instead. When no reader takes a document,
 * or only readers whose evidence is shared by other formats do, the error names the family whose
 * signs are strongest and what it expected, rather than failing in another family's terms.
 */
export interface NearMiss {
  /** As {@link Evidence.score}: {@link DISTINCTIVE} and more for signs only this family has. */
  readonly score: number;
  /** What was found, e.g. `4 Anthropic Messages stream events as JSON values (message_start, …)`. */
  readonly found: string;
  /** What the reader expects, e.g. `the stream's raw text: event: / data: lines`. */
  readonly expected: string;
}

/** Options every reader may use. */
export interface ReadOptions {
  /** Read subagent sidechains too (Claude Code), each as its own conversation. */
  readonly sidechains: boolean;
  /** The format was forced (`--format`): the reader refuses content only other formats have. */
  readonly forced: boolean;
  /** The bounds of the load: a reader that parses or decompresses text inside the document keeps to them. */
  readonly limits: Limits;
}

/** One recording format. */
export interface RecordingReader {
  readonly format: TranscriptFormat;
  /** The shape in one line, for the "no shape fits" error and the library (`format: what it is`). */
  readonly shape: string;
  /**
   * What the format is, in a few words (at most 64 characters), for `simulate --help`: the list of
   * formats there, `--format`'s choices, suites' `format:`, the fuzzer and shell completion all
   * come from the registry's readers (README's table is checked against them by a test).
   */
  readonly summary: string;
  /**
   * What a recording of the format holds. `conversation`: the state of a conversation (its
   * messages so far), which the next model call reads; with no assistant message yet it is that
   * one call, pending (the reference's own inputs are such lists, `[system, user]` or even `[]`).
   * `calls`: a log of model calls (a session log, spans, a call log): with none recorded there is
   * nothing to replay, an error.
   */
  readonly records: 'conversation' | 'calls';
  detect(doc: ParsedDocument): Evidence | null;
  /** How near a document it does not take comes to the format, or null (see {@link NearMiss}). */
  near?(doc: ParsedDocument): NearMiss | null;
  /** Reads `doc` into `b`; throws an `InputError` for a shape it cannot read at all. */
  read(doc: ParsedDocument, b: TranscriptBuilder, options: ReadOptions): void;
}

/** Score of distinctive evidence: above anything shared chat keys can reach. */
export const DISTINCTIVE = 1_000_000;
