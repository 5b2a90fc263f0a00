/**
 * Model calls as the `watch` proxy sees them: which provider API a request
 * path is, and the request body and response object of an exchange (a
 * streamed answer put back together by the recordings' own assembly,
 * `assembleSse` of src/formats/recordings/sse.ts), which then make a line
 * `{request, response}` of a call log (OpenAI, Anthropic: the call-log
 * reader) or of Gemini request/response pairs (the gemini reader).
 * A streamed Gemini answer (`streamGenerateContent`: server-sent events with
 * `alt=sse`, else a JSON list of chunks) is merged into the one response its
 * chunks make (`mergeGeminiChunks` of src/formats/recordings/gemini.ts).
 */
import type { JsonValue } from '../../core/types.js';
import { isGeminiChunk, mergeGeminiChunks } from '../recordings/gemini.js';
import { assembleSse } from '../recordings/sse.js';

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
    if (response === undefined) return { request, response: null, error: 'the answer is not JSON' };
    // streamGenerateContent without alt=sse: a JSON list of chunks.
    if (provider === 'gemini' && Array.isArray(response) && response.length > 0 && response.every(isGeminiChunk))
      return { request, response: mergeGeminiChunks(response as Array<{ [key: string]: JsonValue }>) };
    return { request, response };
  }
  const a = assembleSse(exchange.response);
  const m = a.messages[0];
  if (a.messages.length !== 1 || m === undefined || !m.complete || m.provider !== provider) {
    const why = a.problems[0]?.message ?? (m === undefined ? 'no message' : `${a.messages.length} messages`);
    return { request, response: null, error: `the stream holds no complete answer (${why})` };
  }
  return { request, response: m.value };
}
