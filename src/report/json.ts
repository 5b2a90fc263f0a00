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
