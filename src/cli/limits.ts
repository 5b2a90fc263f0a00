/**
 * The loaders' bounds, configurable from the environment (defaults in
 * `formats/read.ts`): `TOOLSEARCH_MAX_BYTES` (largest input file and longest
 * `--batch` line, 64 MiB), `TOOLSEARCH_MAX_DEPTH` (nesting, 1000 levels),
 * `TOOLSEARCH_MAX_ALIASES` (YAML alias dereferences, 1000) and
 * `TOOLSEARCH_MAX_MESSAGES` (messages per transcript, 100,000).
 */
import { UsageError } from '../errors.js';
import type { Limits } from '../formats/read.js';

const VARIABLES: ReadonlyArray<readonly [keyof Limits, string]> = [
  ['maxBytes', 'TOOLSEARCH_MAX_BYTES'],
  ['maxDepth', 'TOOLSEARCH_MAX_DEPTH'],
  ['maxAliases', 'TOOLSEARCH_MAX_ALIASES'],
  ['maxMessages', 'TOOLSEARCH_MAX_MESSAGES'],
];

/** The limits set in `env`; a value that is not a positive integer is a usage error. */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<Limits> {
  const out: { -readonly [K in keyof Limits]?: number } = {};
  for (const [key, name] of VARIABLES) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^[0-9]{1,15}$/.test(v) || Number(v) < 1) throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(v)}`);
    out[key] = Number(v);
  }
  return out;
}
