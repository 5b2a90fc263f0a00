/**
 * Raw search-tool arguments (`--args`, `--batch` lines) as another engine's
 * stack reads them: JSON decoded with `JSON.parse`, then the engine's own
 * input rule. The AI SDK validates nothing against the JSON schema it is
 * given (an extra key passes, a query that is not a string makes its search
 * throw); Mastra's tool parses its input with zod (`{ query: string }`,
 * other keys dropped). A module gets the query string.
 */

/** The query the engine reads, and the keys it does not read (they change nothing). */
export type EngineArgs =
  | { readonly ok: true; readonly query: string; readonly ignored: readonly string[] }
  | { readonly ok: false; readonly error: string };

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function decodeEngineArgs(engine: string, text: string): EngineArgs {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `the arguments are not JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: `the arguments are ${kind(value)}, not an object with a "query"` };
  const record = value as Record<string, unknown>;
  const query = Object.hasOwn(record, 'query') ? record.query : undefined;
  if (typeof query !== 'string') {
    const got = query === undefined ? 'no "query"' : `a "query" that is ${kind(query)}`;
    return {
      ok: false,
      error:
        engine === 'mastra'
          ? `search_tools' input schema refuses ${got}: query must be a string`
          : `the search needs a string "query"; got ${got}`,
    };
  }
  return { ok: true, query, ignored: Object.keys(record).filter((k) => k !== 'query') };
}
