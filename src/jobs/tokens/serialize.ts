/**
 * The tools block of a request, serialized as a provider receives it, and
 * where two blocks first differ (a provider's prompt cache is a prefix cache:
 * a changed tools block breaks the cache from that point on).
 */
import type { ToolInfo } from '../../core/types.js';
import { UsageError } from '../../io/errors.js';

/** Shapes of the tools block. */
export const TOOL_FORMATS = ['openai', 'anthropic'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/** Schema sent for a tool without parameters in Anthropic's shape (`input_schema` is required there). */
const EMPTY_INPUT_SCHEMA = { type: 'object', properties: {} } as const;

/**
 * The tools array as compact JSON:
 * - `openai`: `[{"type":"function","function":{"name","description","parameters"}}]`
 *   (Chat Completions; `parameters` left out when the tool has none);
 * - `anthropic`: `[{"name","description","input_schema"}]`.
 *
 * With `deferLoading`, every tool carries `"defer_loading":true` (model-native
 * tool search: sent with the request, loaded into the context only when found).
 * An empty list is the empty string: a request without tools has no tools block.
 */
export function serializeTools(
  tools: readonly ToolInfo[],
  format: ToolFormat,
  options: { deferLoading?: boolean } = {},
): string {
  if (tools.length === 0) return '';
  const defer = options.deferLoading === true;
  // JSON.stringify of an array is its items' JSON joined by commas: each tool's
  // JSON is made once (tool lists repeat within a conversation and across the
  // sessions of a bulk replay; tool objects are never changed once loaded).
  return `[${tools.map((t) => toolJson(t, format, defer)).join(',')}]`;
}

const toolJsonCache = new WeakMap<ToolInfo, Map<string, string>>();

function toolJson(t: ToolInfo, format: ToolFormat, deferLoading: boolean): string {
  const key = `${format}${deferLoading ? '+defer' : ''}`;
  let byKey = toolJsonCache.get(t);
  if (!byKey) toolJsonCache.set(t, (byKey = new Map()));
  let json = byKey.get(key);
  if (json === undefined) {
    const defer = deferLoading ? { defer_loading: true } : {};
    const item =
      format === 'anthropic'
        ? { name: t.name, description: t.description, input_schema: t.parameters ?? EMPTY_INPUT_SCHEMA, ...defer }
        : {
            type: 'function',
            function: {
              name: t.name,
              description: t.description,
              ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
            },
            ...defer,
          };
    json = JSON.stringify(item);
    byKey.set(key, json);
  }
  return json;
}

/**
 * The offset, in characters (code points), of the first difference between
 * two texts; null when they are identical. When one is a prefix of the other,
 * the difference is at the end of the shorter one.
 */
export function firstDifference(a: string, b: string): number | null {
  if (a === b) return null;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Back up to the start of a surrogate pair that differs in its low half.
  if (i > 0 && i < n) {
    const prev = a.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
  }
  let points = 0;
  for (let j = 0; j < i; j++) {
    const c = a.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff && j + 1 < i) {
      const d = a.charCodeAt(j + 1);
      if (d >= 0xdc00 && d <= 0xdfff) j++;
    }
    points++;
  }
  return points;
}

/** Checks a `--tool-format` value. */
export function parseToolFormat(value: string): ToolFormat {
  if ((TOOL_FORMATS as readonly string[]).includes(value)) return value as ToolFormat;
  throw new UsageError(`unknown tool format ${JSON.stringify(value)}; choose one of ${TOOL_FORMATS.join(', ')}`);
}
