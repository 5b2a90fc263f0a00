/**
 * What `watch` keeps of what it sees: credentials never reach a file or the
 * screen. Dropped before anything is recorded or shown:
 *
 * - HTTP headers that carry credentials or session state: `Authorization`,
 *   `Proxy-Authorization`, `x-api-key`, `api-key`, `x-goog-api-key`,
 *   `Cookie`, `Set-Cookie`, and any header whose name contains `key`,
 *   `token`, `secret`, `auth`, `session`, `cookie`, `password` or
 *   `credential` (`anthropic-version`, `content-type`, `openai-beta` and the
 *   like are kept);
 * - URL query parameters with such names (Gemini's `?key=`);
 * - OTLP attributes (of spans, events, resources and scopes) whose key names
 *   such a header or parameter (`http.request.header.authorization`,
 *   `url.query` keeps its other parameters).
 *
 * Request and response bodies are kept as sent: they hold the conversation
 * and the tools, which is what `watch` is for.
 */

const CREDENTIAL = /key|token|secret|auth|session|cookie|password|credential/i;

/** Whether a header, query parameter or attribute name may carry a credential. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL.test(name);
}

/** The headers without credentials (names lowercased), and the names dropped. */
export function redactHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): {
  readonly kept: Record<string, string>;
  readonly dropped: string[];
} {
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (isCredentialName(lower)) dropped.push(lower);
    else kept[lower] = typeof value === 'string' ? value : value.join(', ');
  }
  return { kept, dropped };
}

/** A path with query (`/v1beta/models/m:generateContent?key=...&alt=sse`) without credential parameters. */
export function redactPathQuery(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return pathAndQuery;
  const params = pathAndQuery
    .slice(q + 1)
    .split('&')
    .filter((p) => p !== '' && !isCredentialName(decodeName(p.split('=')[0]!)));
  return params.length > 0 ? `${pathAndQuery.slice(0, q)}?${params.join('&')}` : pathAndQuery.slice(0, q);
}

function decodeName(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Attribute keys of OTLP that name a credential: the last dotted part is a credential name. */
function isCredentialAttribute(key: string): boolean {
  const last = key.slice(key.lastIndexOf('.') + 1);
  return isCredentialName(last) && !/^(gen_ai|llm|ai)\./.test(key);
}

/**
 * An OTLP JSON export (`{resourceSpans: [...]}`) with credential attributes
 * removed everywhere attributes appear, and credential parameters removed
 * from `url.full`, `url.query` and `http.url` values. Returns a new value.
 */
export function redactOtlp(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactOtlp);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'attributes' && Array.isArray(v)) {
      out[k] = v
        .filter((a) => !(isKeyValue(a) && isCredentialAttribute(a.key)))
        .map((a) => (isKeyValue(a) ? redactUrlAttribute(a) : a))
        .map(redactOtlp);
    } else out[k] = redactOtlp(v);
  }
  return out;
}

function isKeyValue(a: unknown): a is { key: string; value?: unknown } {
  return a !== null && typeof a === 'object' && typeof (a as { key?: unknown }).key === 'string';
}

function redactUrlAttribute(a: { key: string; value?: unknown }): { key: string; value?: unknown } {
  if (!/^(url\.full|url\.query|http\.url|http\.target)$/.test(a.key)) return a;
  const v = a.value as { stringValue?: unknown } | undefined;
  if (typeof v?.stringValue !== 'string') return a;
  const s = v.stringValue;
  const redacted = a.key === 'url.query' ? redactPathQuery(`?${s}`).slice(1) : redactPathQuery(s);
  return { ...a, value: { ...v, stringValue: redacted } };
}
