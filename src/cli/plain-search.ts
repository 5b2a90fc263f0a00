/**
 * `toolsearch search` with plain arguments, read without commander. Scripts run such searches by the
 * thousand, and loading commander (which requires node:child_process, and with it Node's net and
 * stream modules) was the largest part of a cached search's own start-up. Only query words and the
 * flags below are read here; any other argument (help, `--args`, `--flag=value`, a value that starts
 * with a dash, `--`, a flag of another kind) returns null and commander reads the whole argv, as it
 * would have. test/cli/plain-search.test.ts checks that both read every argv made of these pieces to
 * the same words and flags.
 */
import { MCP_TIMEOUT_OPTION } from './inputs.js';
import type { SearchFlags } from './search-run.js';

/** What commander gives `search` for the options these arguments leave out (their defaults). */
const DEFAULTS = { catalogFormat: 'auto', mcpTimeout: MCP_TIMEOUT_OPTION[2], cache: true } as const;

/** A positive integer as `parsePositiveInt` accepts it, without leading zeros (anything else goes to commander). */
const POSITIVE = /^[1-9][0-9]{0,15}$/;

/** The query words and flags of a plain `search` argv, or null when commander must read it. */
export function plainSearchArgs(argv: readonly string[]): { words: string[]; flags: SearchFlags } | null {
  if (argv[0] !== 'search') return null;
  const words: string[] = [];
  const catalog: string[] = [];
  const flags: { -readonly [K in keyof SearchFlags]: SearchFlags[K] } = { ...DEFAULTS };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const value = argv[i + 1];
    switch (arg) {
      case '-c':
      case '--catalog':
        if (value === undefined || value.startsWith('-')) return null;
        catalog.push(value);
        i++;
        break;
      case '-n':
      case '--max-results':
        if (value === undefined || !POSITIVE.test(value) || !Number.isSafeInteger(Number(value))) return null;
        flags.maxResults = Number(value);
        i++;
        break;
      case '--json':
        flags.json = true;
        break;
      case '--explain':
        flags.explain = true;
        break;
      case '--all':
        flags.all = true;
        break;
      case '--no-cache':
        flags.cache = false;
        break;
      // A program option: runCli reads it from argv before any parsing.
      case '--no-color':
        break;
      default:
        return null;
    }
  }
  if (catalog.length > 0) flags.catalog = catalog;
  return { words, flags };
}
