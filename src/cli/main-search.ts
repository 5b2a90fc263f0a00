/**
 * The CLI for a run of `search` or `select`, in a bundle of its own
 * (src/build/bundle.mjs): these are the commands scripts run by the
 * thousand, and Node 20 compiles every byte of the bundle it loads at every
 * start (it has no compile cache). start.ts loads this bundle when argv
 * starts with either name; it runs main() with that command alone, which is
 * the program main.ts builds for such an argv (commands.ts: commandsFor).
 */
import { SEARCH, SELECT } from './commands.js';
import type { CliHost, CliIo } from './context.js';
import { runCli } from './main.js';

export function main(argv: string[], io?: CliIo, host?: CliHost): Promise<number> {
  return runCli(argv, argv[0] === 'select' ? [SELECT] : [SEARCH], io, host);
}
