/**
 * Plain-text pieces of a test report shared by the reporters: the account of
 * a failed case (expected vs. got, with ranks and scores) and the summary
 * line. Text from suites and catalogs is escaped for the terminal here.
 */
import { escapeText, inlineText } from '../io/escape.js';
import type { CaseResult, Failure, SearchGot, TestReport, ToolStanding } from '../jobs/suite/types.js';
import { append } from '../core/append.js';

/** Where a named tool stands, in words. */
export function standingText(s: ToolStanding, got: SearchGot | null): string {
  switch (s.status) {
    case 'returned':
      return `rank ${s.rank}, score ${s.score}`;
    case 'beyond-limit':
      return `rank ${s.rank}, score ${s.score}: beyond max_results ${got?.max_results ?? '?'}`;
    case 'no-match':
      return 'score 0: no keyword matches its name or description';
    case 'excluded':
      return `excluded: the required keyword +${escapeText(s.excluded_by ?? '')} does not match it`;
    case 'selected':
      return `selected at position ${s.rank}`;
    case 'not-selected':
      return 'not selected';
    case 'no-result':
      return 'the search returned an error';
  }
}

/** One line describing what a search case returned. */
export function gotHeadline(got: SearchGot): string {
  // Another engine than the reference is named (the reference's cases read as before).
  const by = got.engine !== 'eino' ? `${inlineText(got.engine)}, ` : '';
  if (got.mode === 'error') return `got an error${by ? ` (${by.slice(0, -2)})` : ''}: ${inlineText(got.error ?? '')}`;
  const n = got.matches.length;
  if (got.mode === 'select') return `got (${by}select): ${n === 0 ? 'nothing' : `${n} tool${n === 1 ? '' : 's'}`}`;
  const total = got.total_matches !== null && got.total_matches > n ? `, ${got.total_matches} tools match in all` : '';
  const limit = got.engine === 'mastra' ? 'topK' : 'max_results';
  return `got (${by}keyword, ${limit} ${got.max_results}${total}): ${n === 0 ? 'nothing' : ''}`.replace(/: $/, ':');
}

/** The result list of a search case: `1. name (score)` per line. */
export function gotLines(got: SearchGot): string[] {
  return got.matches.map(
    (name, i) => `${String(i + 1).padStart(2)}. ${escapeText(name)}${got.scores ? ` (${got.scores[i]})` : ''}`,
  );
}

/** Lines for one failure: the message, then where each named tool stands, then notes. */
export function failureLines(f: Failure, got: SearchGot | null): string[] {
  const out = [`${f.expectation}: ${inlineText(f.message)}`];
  for (const s of f.standings) out.push(`  ${escapeText(s.name)}: ${standingText(s, got)}`);
  for (const n of f.notes) out.push(`  ${inlineText(n)}`);
  return out;
}

/** Whether a case's `got` is a search or select result. */
export function isSearchGot(got: CaseResult['got']): got is SearchGot {
  return got !== null && 'matches' in got;
}

/** Every line of the account of a failed case (without indentation): failures, then what came back. */
export function caseFailureText(c: CaseResult): string[] {
  const got = isSearchGot(c.got) ? c.got : null;
  const lines = c.failures.flatMap((f) => failureLines(f, got));
  // An error outcome is already the message of the failure that reports it.
  if (got && !(got.mode === 'error' && c.failures.some((f) => f.expectation === 'error'))) {
    lines.push(gotHeadline(got));
    append(
      lines,
      gotLines(got).map((l) => `  ${l}`),
    );
  }
  return lines;
}

/** `N passed, N failed` plus `, N skipped` and `, N invalid suites` when any. */

/** `file:line:column: message` of an errored suite (the file alone for line 0). */
export function suiteErrorText(e: {
  message: string;
  location: { file: string; line: number; column: number };
}): string {
  const l = e.location;
  return `${l.line > 0 ? `${l.file}:${l.line}:${l.column}` : l.file}: ${e.message}`;
}

export function summaryLine(report: TestReport): string {
  const s = report.summary;
  const errors = s.errors > 0 ? `, ${s.errors} invalid suite${s.errors === 1 ? '' : 's'}` : '';
  return `${s.passed} passed, ${s.failed} failed${s.skipped > 0 ? `, ${s.skipped} skipped` : ''}${errors}`;
}
