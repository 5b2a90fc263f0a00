/**
 * V8's optimizing compiler put off for a run that is about to parse a
 * catalog (start.ts hands {@link delayOptimizer} to the run as
 * `CliHost.beforeParse`).
 *
 * Why: a CLI run that parses a catalog is usually over in tens of
 * milliseconds. On V8 11.3 (Node 20) the parsers' per-character loops use up
 * their interrupt budget within milliseconds and are queued for Turbofan;
 * those jobs cost the main thread more than their code gives back before the
 * run ends. With the budget 8× its default, such a run stays in the
 * interpreter and the baseline compiler. Only for catalogs between
 * {@link MIN_TEXT} and {@link MAX_TEXT} characters: setting the flag loads
 * node:v8, which brings Node's stream modules, more than it saves on a
 * smaller catalog (little of it reaches Turbofan); on a larger one the parse
 * itself is long enough for Turbofan to pay, and putting it off made the run
 * slower. test/bench/README.md has the figures.
 *
 * Why only there: Node 22 and later name their compile-cache directory after
 * V8's flags, so a flag set by some runs and not others would split the
 * cache; V8 prints an error for a flag it does not know. So it is set on the
 * V8 it was measured on and nowhere else. Node's documentation warns that a
 * flag changed after start may do nothing or act unpredictably; this one is
 * a number V8 reads each time it resets a function's budget, and the test
 * suite runs on Node 20 with it set.
 */
import { createRequire } from 'node:module';

/** V8 11.3's default interrupt budget: bytecode a function runs before it is considered for Turbofan. */
export const V8_11_3_INTERRUPT_BUDGET = 67_584;

/** Text to parse (UTF-16 units) from which putting Turbofan off pays for loading node:v8. */
export const MIN_TEXT = 32 * 1024;

/** Text to parse (UTF-16 units) beyond which Turbofan pays within the parse: nothing is put off. */
export const MAX_TEXT = 256 * 1024;

/** The flag that puts Turbofan off for a short run on V8 `version`, or null where none is set. */
export function shortRunFlag(version: string): string | null {
  return /^11\.3\./.test(version) ? `--interrupt-budget=${8 * V8_11_3_INTERRUPT_BUDGET}` : null;
}

/**
 * A function to call before parsing `length` characters of text: it sets
 * {@link shortRunFlag} for this process's V8 the first time the length is
 * from {@link MIN_TEXT} to {@link MAX_TEXT}. Null when this V8 gets no flag.
 * node:v8 is loaded only then: a cached search never needs it.
 */
export function delayOptimizer(
  version: string = process.versions.v8,
  setFlags: (flags: string) => void = (flags) =>
    (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(flags),
): ((length: number) => void) | null {
  const flag = shortRunFlag(version);
  if (flag === null) return null;
  let done = false;
  return (length) => {
    if (done || length < MIN_TEXT || length > MAX_TEXT) return;
    done = true;
    setFlags(flag);
  };
}
