/**
 * JSON that is safe to print to a terminal and still decodes to the same
 * text: after `JSON.stringify`, the characters a terminal would act on and
 * JSON leaves raw (DEL, C1 controls, line and paragraph separators, bidi
 * controls) are written as `\uXXXX` escapes. The result is also valid YAML
 * (used in TAP diagnostics).
 */
const RAW_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function esc(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `JSON.stringify` with terminal-unsafe characters escaped (strings decode unchanged). */
export function safeJson(
  value: unknown,
  replacer?: (this: unknown, key: string, value: unknown) => unknown,
  indent?: number,
): string {
  return (JSON.stringify(value, replacer as never, indent) ?? 'null').replace(RAW_UNSAFE, esc);
}

/**
 * {@link safeJson} with 2-space indentation, in pieces: a top-level object's
 * array members are written one element at a time, so a report with a
 * hundred thousand entries (lint on a large catalog) is never one string.
 * The pieces joined are exactly `safeJson(value, undefined, 2)`.
 */
export function* safeJsonPieces(value: unknown): Generator<string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'toJSON' in value) {
    yield safeJson(value, undefined, 2);
    return;
  }
  // Nested values are indented one level more: JSON.stringify breaks lines only between
  // tokens (a string holds no raw line break), so every line break gets the indentation.
  const nested = (v: unknown, indent: string): string => safeJson(v, undefined, 2).replace(/\n/g, `\n${indent}`);
  const entries = Object.entries(value).filter(
    ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
  );
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  yield '{\n';
  for (let i = 0; i < entries.length; i++) {
    const [key, v] = entries[i]!;
    yield `  ${safeJson(key)}: `;
    if (Array.isArray(v) && v.length > 0) {
      yield '[\n';
      for (let j = 0; j < v.length; j++) yield `    ${nested(v[j], '    ')}${j < v.length - 1 ? ',\n' : '\n'}`;
      yield '  ]';
    } else yield nested(v, '  ');
    yield i < entries.length - 1 ? ',\n' : '\n';
  }
  yield '}';
}
