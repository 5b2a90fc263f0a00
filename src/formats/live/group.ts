/**
 * Live model calls as the recordings' one grouping sees them ({@link groupCalls}
 * of src/formats/recordings/calls.ts, one call at a time by `CallGrouping`): a
 * proxy call's request and response read into core messages by the reader of
 * the session's recording (call log; Gemini request/response pairs), and an
 * OTLP trace read by the otel reader as one call whose request is its whole
 * conversation so far (a later trace that starts with it continues it).
 */
import type { RecordedCall } from '../recordings/calls.js';
import { loadRecordingText } from '../from-text.js';
import type { Limits } from '../../io/read.js';
import type { LiveProvider } from './calls.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The recording format a provider's calls are kept in (a session's calls are all of one). */
export function liveFormat(provider: LiveProvider): 'gemini' | 'call-log' {
  return provider === 'gemini' ? 'gemini' : 'call-log';
}

/**
 * One proxy call as the grouping compares it: the messages its request sends and those its response
 * answers, read (leniently) as the session's reader reads them; null when the call does not read.
 */
export function recordedCallOf(
  provider: LiveProvider,
  request: unknown,
  response: unknown,
  limits?: Partial<Limits>,
): RecordedCall | null {
  const format = liveFormat(provider);
  const read = (res: unknown) =>
    loadRecordingText(JSON.stringify([{ request, response: res }]), {
      name: 'call',
      format,
      lenient: true,
      ...(limits ? { limits } : {}),
    }).messages;
  let all: ReturnType<typeof read>;
  let sent: ReturnType<typeof read>;
  try {
    all = read(response);
    sent = read(null);
  } catch {
    return null;
  }
  const previous = isObj(request) ? request.previous_response_id : undefined;
  const id = isObj(response) ? response.id : undefined;
  return {
    request: sent,
    response: all.slice(sent.length),
    previousResponseId: typeof previous === 'string' ? previous : null,
    responseId: typeof id === 'string' ? id : null,
  };
}
