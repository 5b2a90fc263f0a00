/**
 * Model calls as the `watch` proxy sees them: which provider API a request
 * path is, and the request body and response object of an exchange (a
 * streamed answer put back together by the recordings' own assembly,
 * `assembleSse` of src/formats/recordings/sse.ts), which then make a line
 * `{request, response}` of a call log (OpenAI, Anthropic: the call-log
 * reader) or of Gemini request/response pairs (the gemini reader).
 * A streamed Gemini answer (`streamGenerateContent?alt=sse`) is put back
 * together by `assembleGeminiSse` (its chunks' parts in order).
 */
import { assembleGeminiSse, assembleSse } from '../recordings/sse.js';

/** The APIs the proxy recognises by path. */
export type LiveProvider = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';

/**
 * Which model API a request path (without query) is, or null for any other
 * path (listed models, files, ...: forwarded, not read as a model call).
 */
export function providerOfPath(path: string): LiveProvider | null {
  const p = path.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(p)) return 'openai';
  if (/\/responses$/.test(p)) return 'openai-responses';
  if (/\/messages$/.test(p)) return 'anthropic';
  if (/:(stream)?generateContent$/i.test(p)) return 'gemini';
  return null;
}

/** A call as the proxy passes it on: the request body and the answer's text (decoded), or null when none. */
export interface Exchange {
  readonly request: string;
  readonly response: string | null;
  readonly streamed: boolean;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The request body and response object of an exchange (a stream put back
 * together), or why the call cannot be read.
 */
export function readExchange(
  provider: LiveProvider,
  exchange: Exchange,
): { readonly request: unknown; readonly response: unknown; readonly error?: string } {
  const request = parseText(exchange.request);
  if (request === undefined) return { request: null, response: null, error: 'the request body is not JSON' };
  if (exchange.response === null) return { request, response: null };
  if (!exchange.streamed) {
    const response = parseText(exchange.response);
    return response === undefined
      ? { request, response: null, error: 'the answer is not JSON' }
      : { request, response };
  }
  if (provider === 'gemini') {
    const g = assembleGeminiSse(exchange.response);
    if ('error' in g) return { request, response: null, error: `the stream holds no complete answer (${g.error})` };
    if (!g.complete)
      return { request, response: null, error: 'the stream holds no complete answer (no chunk gave a finishReason)' };
    return { request, response: g.value };
  }
  const a = assembleSse(exchange.response);
  const m = a.messages[0];
  if (a.messages.length !== 1 || m === undefined || !m.complete || m.provider !== provider) {
    const why = a.problems[0]?.message ?? (m === undefined ? 'no message' : `${a.messages.length} messages`);
    return { request, response: null, error: `the stream holds no complete answer (${why})` };
  }
  return { request, response: m.value };
}
