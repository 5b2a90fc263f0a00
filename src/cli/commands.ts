/**
 * The command registry: every subcommand is one file exporting a factory
 * that returns a commander `Command`; adding a command is one line here.
 * Factories must stay cheap: heavy modules (format loaders, engines, the TUI)
 * are imported lazily inside the command's action.
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { searchCommand } from './commands/search.js';
import { selectCommand } from './commands/select.js';
import { simulateCommand } from './commands/simulate.js';
import { aggregateCommand } from './commands/aggregate.js';
import { testCommand } from './commands/test.js';
import { evalCommand } from './commands/eval.js';
import { lintCommand } from './commands/lint.js';
import { importCommand } from './commands/import.js';
import { exploreCommand } from './commands/explore.js';
import { completionCommand } from './commands/completion.js';

export type CommandFactory = (ctx: CliContext) => Command;

export const COMMANDS: readonly CommandFactory[] = [
  searchCommand,
  selectCommand,
  simulateCommand,
  aggregateCommand,
  testCommand,
  evalCommand,
  lintCommand,
  importCommand,
  exploreCommand,
  completionCommand,
];
