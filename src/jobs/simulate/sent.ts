/**
 * Findings beside the reference, one model call at a time (kept apart from
 * the engine's walk so each is one small pure function):
 *
 * - `sent-differs`: the recording says which tools were sent with this
 *   call (call logs, OTel tool definitions) and they are not what the
 *   reference offers at the same call;
 * - `reference-result`: a recorded search result made of `tool_reference`
 *   blocks in default mode, which the reference's forward selection does
 *   not read.
 */
import type { Mode } from '../../core/types.js';
import type { SentTools } from '../../formats/types.js';
import type { Violation } from './report.js';

function list(names: readonly string[], max = 8): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/**
 * Compares the tools sent with call `call` with what the reference offers then (visible, and deferred in model-native
 * mode).
 */
export function sentDiffers(
  call: number,
  mode: Mode,
  sent: SentTools,
  visible: readonly string[],
  deferred: readonly string[],
  /** Another engine than the reference (`--engine`): its name in the message. */
  engine?: string,
): Violation | null {
  const who = engine === undefined ? 'the reference' : `the ${engine} engine`;
  const problems: string[] = [];
  const compare = (what: string, got: readonly string[], want: readonly string[]): void => {
    const g = new Set(got);
    const w = new Set(want);
    const extra = [...g].filter((n) => !w.has(n));
    const missing = [...w].filter((n) => !g.has(n));
    if (extra.length > 0)
      problems.push(`sent ${what} that ${who} would ${what === 'as deferred' ? 'not defer' : 'hide'}: ${list(extra)}`);
    if (missing.length > 0)
      problems.push(
        `did not send ${what} what ${who} would ${what === 'as deferred' ? 'defer' : 'offer'}: ${list(missing)}`,
      );
  };
  compare('as visible', sent.visible, visible);
  if (mode === 'native' || sent.deferred.length > 0) compare('as deferred', sent.deferred, deferred);
  if (problems.length === 0) return null;
  // A recording that defers tools was made in model-native mode: say how to replay it that way.
  const hint =
    mode === 'default' && sent.deferred.length > 0
      ? ' (the recording defers tools as model-native mode does: --mode native replays it that way)'
      : '';
  return {
    call,
    tool: null,
    kind: 'sent-differs',
    severity: 'warning',
    message: `the recorded request ${problems.join('; ')}${hint}`,
  };
}

/** A recorded search result of `tool_reference` blocks, in default mode: the reference loads none of them. */
export function referenceResult(call: number, tools: readonly string[]): Violation {
  return {
    call,
    tool: null,
    kind: 'reference-result',
    severity: 'warning',
    message:
      `the search result is tool_reference blocks (${list(tools)}): the ` +
      `reference's forward selection reads only {"matches": [...]} text, ` +
      'so in default mode it loads none of them; the provider expands ' +
      'references in model-native mode (try --mode native)',
  };
}
