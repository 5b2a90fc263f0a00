/**
 * Server-sent events (the `text/event-stream` format of the HTML standard,
 * "Interpreting an event stream"): lines end with CRLF, LF or CR; a line
 * `field: value` (one space after the colon dropped) sets `event`, appends
 * to `data` (lines joined with LF), sets `id` or `retry`; a line starting
 * with `:` is a comment; a blank line dispatches the event (an event with
 * no data is dropped, as a browser does). A BOM at the start is skipped.
 * Fields other than those four are ignored by the standard; here they are
 * kept in `unknown` so that a reader can refuse them.
 */

/** One dispatched event, with where it starts. */
export interface SseEvent {
  /** `event` field, or `message` when none (the standard's default type). */
  readonly event: string;
  readonly data: string;
  readonly id: string | null;
  /** Offset of the event's first line. */
  readonly offset: number;
  /** Offset of its first `data` line's value, and whether the data is that one line (for exact positions). */
  readonly dataOffset: number;
  readonly oneDataLine: boolean;
  /** Lines of other fields, by offset (the standard ignores them). */
  readonly unknown: ReadonlyArray<{ readonly offset: number; readonly field: string }>;
}

/** Comments and blank events, counted (a stream's keep-alive). */
export interface SseParse {
  readonly events: SseEvent[];
  readonly comments: number;
}

const FIELD = /^([^:]*)(?::( ?)(.*))?$/s;

/** Parses an event stream (see the module comment). */
export function parseSse(text: string): SseParse {
  const events: SseEvent[] = [];
  let comments = 0;
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  let start = -1;
  let dataOffset = -1;
  let unknown: Array<{ offset: number; field: string }> = [];
  const dispatch = (): void => {
    if (data.length > 0)
      events.push({
        event: event === '' ? 'message' : event,
        data: data.join('\n'),
        id,
        offset: start,
        dataOffset,
        oneDataLine: data.length === 1,
        unknown,
      });
    event = '';
    data = [];
    start = -1;
    dataOffset = -1;
    unknown = [];
  };
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < text.length) {
    let end = pos;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    const line = text.slice(pos, end);
    const lineStart = pos;
    pos = end + (text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1);
    if (line === '') {
      dispatch();
      continue;
    }
    if (line.startsWith(':')) {
      comments++;
      continue;
    }
    const m = FIELD.exec(line)!;
    const name = m[1]!;
    const value = m[3] ?? '';
    const valueOffset = lineStart + name.length + (m[3] === undefined ? 0 : 1 + m[2]!.length);
    if (start < 0) start = lineStart;
    if (name === 'event') event = value;
    else if (name === 'data') {
      if (data.length === 0) dataOffset = valueOffset;
      data.push(value);
    } else if (name === 'id') {
      if (!value.includes('\0')) id = value;
    } else if (name !== 'retry') unknown.push({ offset: lineStart, field: name });
  }
  dispatch();
  return { events, comments };
}

/**
 * Whether `text` looks like an event stream: every non-blank line is a
 * field (`event:`, `data:`, `id:`, `retry:`) or a comment, and some line is
 * `data:`. A YAML document of those keys alone would also fit, but is not
 * a recording of anything.
 */
export function looksLikeSse(text: string): boolean {
  let data = false;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < text.length) {
    let end = pos;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    const line = text.slice(pos, end);
    pos = end + 1;
    if (line === '' || line.startsWith(':')) continue;
    const m = /^(event|data|id|retry)(:|$)/.exec(line);
    if (!m) return false;
    if (m[1] === 'data') data = true;
  }
  return data;
}
