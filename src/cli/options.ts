/**
 * Parsers for flag values. They throw commander's InvalidArgumentError, so a
 * bad value is reported like any other usage error (exit 2).
 */
import { InvalidArgumentError } from 'commander';

/** `-n 5`: a positive integer. */
export function parsePositiveInt(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('Expected a positive integer.');
  }
  return Number(value);
}

/** A comma-separated list of names; pieces are trimmed, empty pieces dropped. */
export function parseNameList(value: string, previous: string[] = []): string[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new InvalidArgumentError('Expected one or more comma-separated names.');
  return [...previous, ...names];
}

/** Repeatable option: collects every value. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `--force`: an output (`-o`, `--html`, `--aggregate`) may replace an existing file that is not a
 * report toolsearch wrote (src/io/output.ts). Never an input of the run.
 */
export const FORCE_OPTION = [
  '--force',
  'let an output replace an existing file that is not a report toolsearch wrote (never an input of the run)',
] as const;
