/**
 * The loaders' bounds, configurable from the environment (defaults in
 * `io/read.ts`): `TOOLSEARCH_MAX_BYTES` (largest input file, `--batch`
 * line and JSONL session, 64 MiB), `TOOLSEARCH_MAX_DEPTH` (nesting, 1000
 * levels), `TOOLSEARCH_MAX_ALIASES` (YAML alias dereferences, 1000; 0 forbids
 * aliases), `TOOLSEARCH_MAX_ALIAS_BYTES` (bytes of text YAML aliases may add,
 * 64 MiB), `TOOLSEARCH_MAX_ALIAS_VALUES` (values YAML aliases may add,
 * 1,000,000), `TOOLSEARCH_MAX_MESSAGES` (messages per transcript, 100,000),
 * `TOOLSEARCH_MAX_MCP_MESSAGE_BYTES` (one MCP message, 10 MiB) and
 * `TOOLSEARCH_MAX_MCP_PAGES` (pages of one server's tools/list, 10,000).
 * Every error about one of these bounds names its variable.
 */
import { UsageError } from '../io/errors.js';
import { LIMIT_VARIABLES, type Limits } from '../io/read.js';

/** The least value of each bound (0 only where it means "none allowed"); every other bound is at least 1. */
const LEAST: Partial<Record<keyof Limits, number>> = {
  // 0: a YAML document with any alias is refused ("too many YAML aliases (more than 0; …)").
  maxAliases: 0,
};

/**
 * The limits set in `env`; a value that is not a positive integer (a
 * non-negative one for TOOLSEARCH_MAX_ALIASES) is a usage error.
 */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<Limits> {
  const out: { -readonly [K in keyof Limits]?: number } = {};
  for (const key of Object.keys(LIMIT_VARIABLES) as (keyof Limits)[]) {
    const name = LIMIT_VARIABLES[key];
    const least = LEAST[key] ?? 1;
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
