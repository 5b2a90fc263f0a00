/**
 * Token counting with gpt-tokenizer (pure JavaScript, no downloads). The
 * encoding tables are large, so an encoding is imported only when asked for.
 *
 * Counts are estimates: a provider wraps tool definitions in its own
 * template (OpenAI renders them as a TypeScript-like namespace, Anthropic
 * adds a system preamble) and Anthropic models use a different tokenizer.
 */
import { UsageError } from '../../io/errors.js';

/** The encodings gpt-tokenizer ships. */
export const ENCODINGS = [
  'o200k_base',
  'o200k_harmony',
  'cl100k_base',
  'p50k_base',
  'p50k_edit',
  'r50k_base',
  'gpt2',
] as const;
export type EncodingName = (typeof ENCODINGS)[number];

/** The default: the encoding of GPT-4o, GPT-4.1, GPT-5 and the o-series. */
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

/** Counts the tokens of a text. */
export interface Tokenizer {
  readonly encoding: EncodingName;
  count(text: string): number;
}

/** Checks a `--tokenizer` value. */
export function parseEncodingName(value: string): EncodingName {
  if ((ENCODINGS as readonly string[]).includes(value)) return value as EncodingName;
  throw new UsageError(`unknown tokenizer ${JSON.stringify(value)}; choose one of ${ENCODINGS.join(', ')}`);
}

type EncodeOptions = { disallowedSpecial: Set<string> };
type CountFn = (text: string, options: EncodeOptions) => number;

async function countFunction(name: EncodingName): Promise<CountFn> {
  // One literal import per encoding, so bundlers and the type checker see them.
  switch (name) {
    case 'o200k_base':
      return (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
    case 'o200k_harmony':
      return (await import('gpt-tokenizer/encoding/o200k_harmony')).countTokens;
    case 'cl100k_base':
      return (await import('gpt-tokenizer/encoding/cl100k_base')).countTokens;
    case 'p50k_base':
      return (await import('gpt-tokenizer/encoding/p50k_base')).countTokens;
    case 'p50k_edit':
      return (await import('gpt-tokenizer/encoding/p50k_edit')).countTokens;
    case 'r50k_base':
      return (await import('gpt-tokenizer/encoding/r50k_base')).countTokens;
    case 'gpt2':
      return (await import('gpt-tokenizer/encoding/gpt2')).countTokens;
  }
}

/**
 * Longest run of letters (or of punctuation) counted whole. The tokenizer
 * splits text into pieces (a word, a run of punctuation, up to 3 digits) and
 * byte-pair merging is quadratic in a piece's length, so a hostile 100 kB
 * "word" (a name or description of one repeated letter) would take seconds.
 * Longer runs are counted in slices of this length, a close estimate; any
 * other text (compact JSON included) is counted exactly as before.
 */
export const MAX_COUNTED_RUN = 1000;
const LONG_RUN = new RegExp(
  `[\\p{L}\\p{M}]{${MAX_COUNTED_RUN + 1},}|[^\\s\\p{L}\\p{N}]{${MAX_COUNTED_RUN + 1},}`,
  'gu',
);

function countBounded(countTokens: CountFn, text: string, options: EncodeOptions): number {
  if (text.length <= MAX_COUNTED_RUN) return countTokens(text, options);
  let total = 0;
  let from = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    if (m.index > from) total += countTokens(text.slice(from, m.index), options);
    const end = m.index + m[0].length;
    for (let i = m.index; i < end; ) {
      let j = Math.min(end, i + MAX_COUNTED_RUN);
      // Never split a surrogate pair.
      if (j < end && (text.charCodeAt(j) & 0xfc00) === 0xdc00) j++;
      total += countTokens(text.slice(i, j), options);
      i = j;
    }
    from = end;
  }
  if (from === 0) return countTokens(text, options);
  if (from < text.length) total += countTokens(text.slice(from), options);
  return total;
}

const loaded = new Map<EncodingName, Promise<Tokenizer>>();

/**
 * Counts already made, by text: the same tools blocks (the whole catalog up
 * front, the first calls' lists) recur in every session of a bulk replay.
 * Bounded by the characters it holds; when full it starts again.
 */
const MEMO_CHARS = 16 * 1024 * 1024;
const MEMO_MIN_LENGTH = 256;

function memoized(count: (text: string) => number): (text: string) => number {
  let memo = new Map<string, number>();
  let chars = 0;
  return (text) => {
    if (text.length < MEMO_MIN_LENGTH || text.length > MEMO_CHARS) return count(text);
    let n = memo.get(text);
    if (n === undefined) {
      n = count(text);
      if (chars + text.length > MEMO_CHARS) {
        memo = new Map();
        chars = 0;
      }
      memo.set(text, n);
      chars += text.length;
    }
    return n;
  };
}

/**
 * Loads a tokenizer (once per encoding). Text that looks like a special
 * token (`<|endoftext|>` in a description) is counted as ordinary text, as
 * the APIs treat it in tool definitions.
 */
export function loadTokenizer(name: EncodingName = DEFAULT_ENCODING): Promise<Tokenizer> {
  let p = loaded.get(name);
  if (!p) {
    p = countFunction(name).then((countTokens): Tokenizer => {
      const options: EncodeOptions = { disallowedSpecial: new Set() };
      return {
        encoding: name,
        count: memoized((text) => (text === '' ? 0 : countBounded(countTokens, text, options))),
      };
    });
    loaded.set(name, p);
  }
  return p;
}
