/**
 * The loaders' bounds, configurable from the environment (defaults in
 * `formats/read.ts`): `TOOLSEARCH_MAX_BYTES` (largest input file and longest
 * `--batch` line, 64 MiB), `TOOLSEARCH_MAX_DEPTH` (nesting, 1000 levels),
 * `TOOLSEARCH_MAX_ALIASES` (YAML alias dereferences, 1000; 0 forbids aliases),
 * `TOOLSEARCH_MAX_ALIAS_BYTES` (bytes of text YAML aliases may add, 64 MiB) and
 * `TOOLSEARCH_MAX_MESSAGES` (messages per transcript, 100,000).
 */
import { UsageError } from '../errors.js';
import type { Limits } from '../formats/read.js';

/** Each bound, its variable, and its least value (0 only where it means "none allowed"). */
const VARIABLES: ReadonlyArray<readonly [keyof Limits, string, number]> = [
  ['maxBytes', 'TOOLSEARCH_MAX_BYTES', 1],
  ['maxDepth', 'TOOLSEARCH_MAX_DEPTH', 1],
  // 0: a YAML document with any alias is refused ("too many YAML aliases (more than 0)").
  ['maxAliases', 'TOOLSEARCH_MAX_ALIASES', 0],
  ['maxAliasBytes', 'TOOLSEARCH_MAX_ALIAS_BYTES', 1],
  ['maxMessages', 'TOOLSEARCH_MAX_MESSAGES', 1],
];

/**
 * The limits set in `env`; a value that is not a positive integer (a
 * non-negative one for TOOLSEARCH_MAX_ALIASES) is a usage error.
 */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<Limits> {
  const out: { -readonly [K in keyof Limits]?: number } = {};
  for (const [key, name, least] of VARIABLES) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^[0-9]{1,15}$/.test(v) || Number(v) < least) {
      throw new UsageError(
        `${name} must be a ${least === 0 ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(v)}`,
      );
    }
    out[key] = Number(v);
  }
  return out;
}
