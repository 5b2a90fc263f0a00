/**
 * V8's optimizing compiler put off while a run reads a catalog's YAML
 * (start.ts hands {@link delayOptimizer} to the run as
 * `CliHost.beforeParse`; the catalog loader calls it).
 *
 * Why: a first search on a catalog is over in tens of milliseconds. js-yaml's
 * per-character loops use up their tiering budget within milliseconds and are
 * queued for Turbofan, whose jobs cost the main thread more than their code
 * gives back before the run ends. With the threshold 8× its default, the
 * parse stays in the lower tiers; the flag is set back when the parse is
 * over, so what follows (a batch of queries, a simulation) tiers up as usual.
 *
 * When: only for 32–256 KiB of YAML ({@link MIN_TEXT}, {@link MAX_TEXT}).
 * Setting a flag loads node:v8, which brings Node's stream modules: more than
 * it saves on less YAML (little reaches Turbofan) or on JSON (our reader's
 * loops did not gain); on more YAML the parse is long enough for Turbofan to
 * pay. Only on the V8s of Node 20 and 22 ({@link TIERING}): Node 24's did
 * not gain, and V8 prints an error for a flag it does not know, so nothing is
 * set on a V8 this was not measured on, nor when the user set the flag
 * (`node --interrupt-budget=…`, NODE_OPTIONS). test/bench/README.md has the
 * figures.
 *
 * Node 22 names its compile-cache directory after V8's flags and V8 refuses a
 * cache entry made under other flags, so the flag is set after the parsers
 * are loaded and set back before anything else is: no module is compiled
 * while it is set. Node's documentation warns that a flag changed after
 * start may do nothing or act unpredictably; these are numbers V8 reads when
 * it decides to optimize a function, and the test suite runs with them set.
 */
import { createRequire } from 'node:module';
import type { BeforeParse } from './catalog-cache.js';

/** YAML to parse (UTF-16 units) from which putting Turbofan off pays for loading node:v8. */
export const MIN_TEXT = 32 * 1024;

/** YAML to parse (UTF-16 units) beyond which Turbofan pays within the parse: nothing is put off. */
export const MAX_TEXT = 256 * 1024;

/** A V8 where Turbofan is put off: the flag that says when a function is optimized, and its default. */
interface Tiering {
  readonly version: RegExp;
  readonly flag: string;
  readonly default: number;
}

/**
 * V8 11.3 (Node 20): bytecode a function runs before it is considered for Turbofan. V8 12.4 (Node 22):
 * calls (times its size) before a function goes on from Maglev to Turbofan.
 */
export const TIERING: readonly Tiering[] = [
  { version: /^11\.3\./, flag: '--interrupt-budget', default: 67_584 },
  { version: /^12\.4\./, flag: '--invocation-count-for-turbofan', default: 3_000 },
];

/** How much later Turbofan comes while YAML is read. */
export const FACTOR = 8;

/**
 * The flag that puts Turbofan off on V8 `version`, with its settings that put it off and set it back, or
 * null where nothing is done.
 */
export function shortRunFlags(
  version: string,
): { readonly flag: string; readonly off: string; readonly back: string } | null {
  const t = TIERING.find((x) => x.version.test(version));
  return t === undefined
    ? null
    : { flag: t.flag, off: `${t.flag}=${FACTOR * t.default}`, back: `${t.flag}=${t.default}` };
}

/** Whether the user set V8's `flag` for this process (`node --flag=…`, NODE_OPTIONS; `_` and `-` alike). */
export function flagGiven(flag: string, given: readonly string[]): boolean {
  const name = flag.replace(/^--/, '').replace(/_/g, '-');
  return given.some((g) => g.replace(/_/g, '-').includes(name));
}

/**
 * A function to call before parsing `length` characters of YAML: when the
 * length is from {@link MIN_TEXT} to {@link MAX_TEXT}, it sets the flag of
 * {@link shortRunFlags} and returns the function that sets it back, to call
 * when the parse is over. Null when this V8 gets no flag, or when the user
 * set that flag (`given`: Node's own arguments and NODE_OPTIONS): theirs is
 * left alone. node:v8 is loaded only when the flag is set: a cached search
 * never needs it.
 */
export function delayOptimizer(
  version: string = process.versions.v8,
  setFlags: (flags: string) => void = (flags) =>
    (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(flags),
  given: readonly string[] = [...process.execArgv, process.env.NODE_OPTIONS ?? ''],
): BeforeParse | null {
  const flags = shortRunFlags(version);
  if (flags === null || flagGiven(flags.flag, given)) return null;
  return (length) => {
    if (length < MIN_TEXT || length > MAX_TEXT) return undefined;
    setFlags(flags.off);
    return () => setFlags(flags.back);
  };
}
