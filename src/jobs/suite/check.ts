/**
 * Expectation checks: each failed expectation becomes a {@link Failure} with
 * what was expected, what came back, and where every named tool stands
 * (rank and score, or why it scores nothing), read from the core's index.
 */
import type { JsonValue, ToolIndex, ToolSearchOutcome } from '../../core/index.js';
import type { SimulationReport } from '../simulate/report.js';
import type { Failure, ListAt, NameRef, ResultExpectations, SimulateCase, ToolStanding } from './types.js';
import { quote } from '../../io/errors.js';

function failure(
  expectation: string,
  message: string,
  expected: JsonValue,
  actual: JsonValue,
  standings: ToolStanding[] = [],
  notes: string[] = [],
): Failure {
  return { expectation, message, expected, actual, standings, notes };
}

/** Where each tool stands in an outcome, computed lazily (the full ranking only when needed). */
class Standings {
  private ranking: ReadonlyArray<{ readonly name: string; readonly score: number }> | null = null;

  constructor(
    private readonly outcome: ToolSearchOutcome,
    private readonly index: ToolIndex,
  ) {}

  of(name: string): ToolStanding {
    const o = this.outcome;
    const none = { name, rank: null, score: null, excluded_by: null };
    if (!o.ok) return { ...none, status: 'no-result' };
    const at = o.matches.indexOf(name);
    if (o.mode === 'select')
      return { ...none, status: at >= 0 ? 'selected' : 'not-selected', rank: at >= 0 ? at + 1 : null };
    const ex = this.index.explainTool(name, o.keywords);
    if (at >= 0) return { name, status: 'returned', rank: at + 1, score: o.results[at]!.score, excluded_by: null };
    if (!ex) return { ...none, status: 'no-match' };
    if (ex.excludedBy !== null) return { name, status: 'excluded', rank: null, score: 0, excluded_by: ex.excludedBy };
    this.ranking ??= this.index.rankAll(o.keywords);
    const full = this.ranking.findIndex((r) => r.name === name);
    if (full < 0) return { name, status: 'no-match', rank: null, score: 0, excluded_by: null };
    return { name, status: 'beyond-limit', rank: full + 1, score: ex.score, excluded_by: null };
  }
}

const names = (refs: readonly NameRef[]): string[] => refs.map((r) => r.name);

/** Checks the expectations of a search or select case against the reference's outcome. */
export function checkResult(
  e: ResultExpectations,
  outcome: ToolSearchOutcome,
  index: ToolIndex,
  /** Another engine than the reference: where a tool stands in its ranking. */
  standingOf?: (name: string) => ToolStanding,
): Failure[] {
  const out: Failure[] = [];
  const st = standingOf !== undefined ? { of: standingOf } : new Standings(outcome, index);
  if (!outcome.ok) {
    if (e.error === undefined) {
      out.push(failure('error', `the search returned an error: ${outcome.error}`, null, outcome.error));
    } else if (!outcome.error.includes(e.error)) {
      out.push(
        failure(
          'error',
          `expected an error containing ${quote(e.error)}, got: ${outcome.error}`,
          e.error,
          outcome.error,
        ),
      );
    }
    // The other expectations are about results, which an error does not have.
    return out;
  }
  const got = outcome.matches;
  if (e.error !== undefined) {
    out.push(
      failure(
        'error',
        `expected an error containing ${quote(e.error)}, got ${got.length} result${got.length === 1 ? '' : 's'}`,
        e.error,
        [...got],
      ),
    );
  }
  if (e.includes) {
    const missing = e.includes.filter((n) => !got.includes(n.name));
    if (missing.length > 0) {
      out.push(
        failure(
          'includes',
          `expected ${missing.length === 1 ? 'this tool' : 'these tools'} to be returned: ${names(missing).join(', ')}`,
          names(e.includes),
          [...got],
          missing.map((n) => st.of(n.name)),
        ),
      );
    }
  }
  if (e.excludes) {
    const present = e.excludes.filter((n) => got.includes(n.name));
    if (present.length > 0) {
      out.push(
        failure(
          'excludes',
          `expected ${present.length === 1 ? 'this tool' : 'these tools'} ` +
            `not to be returned: ${names(present).join(', ')}`,
          names(e.excludes),
          [...got],
          present.map((n) => st.of(n.name)),
        ),
      );
    }
  }
  if (e.exact) {
    const want = names(e.exact);
    if (want.length !== got.length || want.some((n, i) => n !== got[i])) {
      // Where each expected tool that is not in its expected place stands.
      const off = [...new Set(want.filter((n, i) => got[i] !== n))];
      out.push(
        failure(
          'exact',
          `expected exactly [${want.join(', ')}], got [${got.join(', ')}]`,
          want,
          [...got],
          off.map((n) => st.of(n)),
        ),
      );
    }
  }
  if (e.first) {
    const f = e.first.name;
    if (got[0] !== f) {
      out.push(failure('first', `expected ${f} first, got ${got[0] ?? 'no result'}`, f, got[0] ?? null, [st.of(f)]));
    }
  }
  for (const r of e.rank_at_most ?? []) {
    const s = st.of(r.tool.name);
    const rank = got.indexOf(r.tool.name);
    if (rank < 0 || rank + 1 > r.rank) {
      const where = rank < 0 ? 'it is not returned' : `it is at rank ${rank + 1}`;
      out.push(
        failure(
          'rank_at_most',
          `expected ${r.tool.name} at rank ${r.rank} or better: ${where}`,
          { [r.tool.name]: r.rank },
          rank < 0 ? null : rank + 1,
          [s],
        ),
      );
    }
  }
  if (e.none === true && got.length > 0) {
    out.push(failure('none', `expected no result, got ${got.length}`, [], [...got]));
  }
  return out;
}

function checkList(kind: 'visible_at' | 'deferred_at', l: ListAt, report: SimulationReport): Failure[] {
  const turn = report.turns.find((t) => t.call === l.call);
  const list = kind === 'visible_at' ? 'visible' : 'deferred';
  if (!turn) {
    return [
      failure(
        kind,
        `call ${l.call} does not exist: the conversation ` +
          `has ${report.turns.length} model call${report.turns.length === 1 ? '' : 's'}`,
        l.call,
        report.turns.length,
      ),
    ];
  }
  const got = kind === 'visible_at' ? turn.visible : turn.deferred;
  const out: Failure[] = [];
  const notes = [`${list} at call ${l.call}: [${got.join(', ')}]`];
  if (turn.added.length > 0) notes.push(`added at call ${l.call}: ${turn.added.join(', ')}`);
  const missing = (l.includes ?? []).filter((n) => !got.includes(n.name));
  if (missing.length > 0)
    out.push(
      failure(
        kind,
        `call ${l.call}: expected ${list}: ${names(missing).join(', ')}`,
        names(l.includes!),
        [...got],
        [],
        notes,
      ),
    );
  const present = (l.excludes ?? []).filter((n) => got.includes(n.name));
  if (present.length > 0)
    out.push(
      failure(
        kind,
        `call ${l.call}: expected not ${list}: ${names(present).join(', ')}`,
        names(l.excludes!),
        [...got],
        [],
        notes,
      ),
    );
  if (l.exact) {
    const want = names(l.exact);
    if (want.length !== got.length || want.some((n, i) => n !== got[i])) {
      out.push(
        failure(
          kind,
          `call ${l.call}: expected ${list} exactly [${want.join(', ')}], got [${got.join(', ')}]`,
          want,
          [...got],
          [],
          notes.slice(1),
        ),
      );
    }
  }
  return out;
}

/** Checks the expectations of a simulate case against the simulation report. */
export function checkSimulation(c: SimulateCase, report: SimulationReport): Failure[] {
  const out: Failure[] = [];
  for (const l of c.expect.visible_at) out.push(...checkList('visible_at', l, report));
  for (const l of c.expect.deferred_at) out.push(...checkList('deferred_at', l, report));
  if (c.expect.no_violations) {
    const errors = report.violations.filter((v) => v.severity === 'error');
    if (errors.length > 0) {
      out.push(
        failure(
          'no_violations',
          `expected no violations, got ${errors.length}`,
          [],
          errors.map((v) => ({ call: v.call, tool: v.tool, kind: v.kind })),
          [],
          errors.map((v) => `call ${v.call}: ${v.kind}${v.tool !== null ? ` ${v.tool}` : ''}: ${v.message}`),
        ),
      );
    }
  }
  if (c.expect.same_as_recorded && report.replay) {
    const diffs = report.turns.flatMap((t) => t.searches.filter((s) => s.differs).map((s) => ({ call: t.call, s })));
    if (diffs.length > 0) {
      const show = (o: (typeof diffs)[number]['s']['replayed'] | null): string =>
        o === null ? 'nothing' : 'error' in o ? `error: ${o.error}` : `[${o.matches.join(', ')}]`;
      out.push(
        failure(
          'same_as_recorded',
          `${diffs.length} recorded tool_search ` +
            `result${diffs.length === 1 ? ' differs' : 's differ'} from a fresh search`,
          'the recorded results',
          diffs.map((d) => ({ call: d.call, arguments: d.s.arguments })),
          [],
          [
            ...diffs.flatMap((d) => [
              `call ${d.call}: tool_search ${d.s.arguments}`,
              `  recorded: ${show(d.s.recorded)}`,
              `  replayed: ${show(d.s.replayed)}`,
            ]),
            ...report.replay.visibility.flatMap((v) =>
              v.gained.length + v.lost.length > 0
                ? [
                    `visibility at call ${v.call}:` +
                      ` ${[...v.gained.map((g) => `+${g}`), ...v.lost.map((g) => `-${g}`)].join(' ')}`,
                  ]
                : [],
            ),
          ],
        ),
      );
    }
  }
  return out;
}
