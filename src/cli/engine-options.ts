/**
 * `--engine` and each engine's parameters, shared by the commands that run a
 * search (search, select, simulate, test, eval, lint, explore). Each engine
 * reads its own parameters, with its own defaults; a parameter given to an
 * engine that has no such parameter is a usage error, never ignored.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { EngineParams } from '../core/engines/index.js';
import { UsageError } from '../io/errors.js';
import { DEFAULT_ENGINE, engineName, type EngineSpec, parseEngineSpec } from '../jobs/engines/engine.js';
import { parsePositiveInt } from './options.js';

/** The flags these options give a command's action. */
export interface EngineFlags {
  readonly engine?: EngineSpec;
  readonly maxResults?: number;
  readonly topK?: number;
  readonly minScore?: number;
  readonly autoLoad?: boolean;
  readonly ttl?: number;
  readonly engineTimeout?: number;
}

const ENGINE_HELP =
  'the tool search to run: eino (the reference, default), ai-sdk (the Vercel AI SDK 7 toolSearch), ' +
  'mastra (Mastra ToolSearchProcessor), or a module exporting search({ query, tools, maxResults }) (./my-search.js)';

function parseSpec(value: string): EngineSpec {
  try {
    return parseEngineSpec(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** `--min-score 0.5`: a finite number (negative allowed, as Mastra allows it). */
export function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('Expected a number.');
  return n;
}

/** `--ttl 0`: milliseconds, 0 or more (0: never expires, as in Mastra). */
function parseMs(value: string): number {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('Expected milliseconds (an integer, 0 or more).');
  return Number(value);
}

/** Adds `--engine` and the engines' parameters. `maxResults`: the command already has `-n, --max-results`. */
export function addEngineOptions(
  cmd: Command,
  options: { readonly maxResults?: boolean; readonly ttl?: boolean; readonly engineHelp?: string } = {},
): Command {
  cmd.addOption(new Option('--engine <name|module>', options.engineHelp ?? ENGINE_HELP).argParser(parseSpec));
  if (options.maxResults === true)
    cmd.addOption(
      new Option(
        '-n, --max-results <n>',
        'eino: max_results; ai-sdk: toolSearch maxResults; a module: maxResults (default 5)',
      ).argParser(parsePositiveInt),
    );
  cmd
    .addOption(new Option('--top-k <n>', 'mastra: search.topK (default 5)').argParser(parsePositiveInt))
    .addOption(
      new Option(
        '--min-score <x>',
        'mastra: search.minScore; results scoring at most this are dropped (default 0)',
      ).argParser(parseScore),
    )
    .addOption(new Option('--auto-load', 'mastra: search.autoLoad (a search loads what it finds; no load_tool)'));
  if (options.ttl === true)
    cmd.addOption(
      new Option(
        '--ttl <ms>',
        'mastra: how long loaded tools stay without an access (default 3600000; 0: forever)',
      ).argParser(parseMs),
    );
  cmd.addOption(
    new Option(
      '--engine-timeout <ms>',
      'a module engine: how long it may take to load or to answer one search (default 10000)',
    ).argParser(parsePositiveInt),
  );
  return cmd;
}

/** The engine chosen (the reference unless told). */
export function engineOf(flags: EngineFlags): EngineSpec {
  return flags.engine ?? DEFAULT_ENGINE;
}

/**
 * The engine's parameters from the flags; a parameter of another engine is a usage error
 * (`--top-k` with ai-sdk, `--max-results` with mastra).
 */
export function engineParams(flags: EngineFlags, spec: EngineSpec = engineOf(flags)): EngineParams {
  const name = engineName(spec);
  const mastra = spec.kind === 'builtin' && spec.id === 'mastra';
  const only = (flag: string, given: unknown, ok: boolean, hint: string): void => {
    if (given !== undefined && !ok) throw new UsageError(`${flag} is not a parameter of the ${name} engine (${hint})`);
  };
  only('--top-k', flags.topK, mastra, "it is Mastra's search.topK: --engine mastra");
  only('--min-score', flags.minScore, mastra, "it is Mastra's search.minScore: --engine mastra");
  only('--auto-load', flags.autoLoad, mastra, "it is Mastra's search.autoLoad: --engine mastra");
  only('--ttl', flags.ttl, mastra, "it is the TTL of Mastra's loaded tools: --engine mastra");
  only('--max-results', flags.maxResults, !mastra, "Mastra's limit is search.topK: --top-k");
  only('--engine-timeout', flags.engineTimeout, spec.kind === 'module', 'it bounds a module engine');
  return {
    ...(flags.maxResults !== undefined ? { maxResults: flags.maxResults } : {}),
    ...(flags.topK !== undefined ? { topK: flags.topK } : {}),
    ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
    ...(flags.autoLoad !== undefined ? { autoLoad: flags.autoLoad } : {}),
    ...(flags.ttl !== undefined ? { ttl: flags.ttl } : {}),
  };
}
