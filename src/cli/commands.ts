/**
 * The command registry: every subcommand is one file exporting a factory
 * that returns a commander `Command`; adding a command is one entry here.
 * A command's module is imported only when the program is built with it: a
 * run of one command (`toolsearch search …`) loads that command alone (see
 * {@link commandsFor}). Factories must stay cheap: heavy modules (format
 * loaders, engines, the TUI) are imported lazily inside the command's action.
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';

export type CommandFactory = (ctx: CliContext) => Command;

/** A command: its name (the one its factory gives it; test/cli checks they agree) and its module. */
export interface CommandEntry {
  readonly name: string;
  load(): Promise<CommandFactory>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'search', load: async () => (await import('./commands/search.js')).searchCommand },
  { name: 'select', load: async () => (await import('./commands/select.js')).selectCommand },
  { name: 'simulate', load: async () => (await import('./commands/simulate.js')).simulateCommand },
  { name: 'watch', load: async () => (await import('./commands/watch.js')).watchCommand },
  { name: 'aggregate', load: async () => (await import('./commands/aggregate.js')).aggregateCommand },
  { name: 'test', load: async () => (await import('./commands/test.js')).testCommand },
  { name: 'eval', load: async () => (await import('./commands/eval.js')).evalCommand },
  { name: 'lint', load: async () => (await import('./commands/lint.js')).lintCommand },
  { name: 'import', load: async () => (await import('./commands/import.js')).importCommand },
  { name: 'explore', load: async () => (await import('./commands/explore.js')).exploreCommand },
  { name: 'completion', load: async () => (await import('./commands/completion.js')).completionCommand },
];

/**
 * The commands a run of `argv` needs: the one it names first, or all of them
 * (help, a global option first, an unknown command, and `completion`, which
 * lists the others). Commander dispatches on that first word alone, so a
 * program holding only that command parses, checks and answers exactly as
 * the whole one would.
 */
export function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
  const named = COMMANDS.find((c) => c.name === argv[0]);
  return named !== undefined && named.name !== 'completion' ? [named] : COMMANDS;
}
