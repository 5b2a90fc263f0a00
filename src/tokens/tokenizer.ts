/**
 * Token counting with gpt-tokenizer (pure JavaScript, no downloads). The
 * encoding tables are large, so an encoding is imported only when asked for.
 *
 * Counts are estimates: a provider wraps tool definitions in its own
 * template (OpenAI renders them as a TypeScript-like namespace, Anthropic
 * adds a system preamble) and Anthropic models use a different tokenizer.
 */
import { UsageError } from '../errors.js';

/** The encodings gpt-tokenizer ships. */
export const ENCODINGS = ['o200k_base', 'o200k_harmony', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'] as const;
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

const loaded = new Map<EncodingName, Promise<Tokenizer>>();

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
      return { encoding: name, count: (text) => (text === '' ? 0 : countTokens(text, options)) };
    });
    loaded.set(name, p);
  }
  return p;
}
