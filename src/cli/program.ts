/** The commander program: global options, output wiring, and the registered commands. */
import { Command } from 'commander';
import { escapeText } from '../render/escape.js';
import { COMMANDS } from './commands.js';
import type { CliContext } from './context.js';

const EXAMPLES = `
Examples:
  $ toolsearch search -c fixtures/catalogs/demo.yaml create issue
  $ toolsearch search -c fixtures/catalogs/demo.yaml --args '{"query":"+slack message","max_results":3}' --explain
  $ toolsearch select -c fixtures/catalogs/demo.yaml mcp__github__create_issue mcp__slack__send_message --json
  $ toolsearch simulate fixtures/transcripts/keyword-search-then-call.json -c fixtures/catalogs/demo.yaml
  $ toolsearch <command> --help

Exit codes: 0 ok, 1 an expectation or check failed, 2 bad input or usage.
Colors: on a terminal only; --no-color or NO_COLOR=1 turn them off, FORCE_COLOR=1 forces them.
`;

/** Builds the program; `version` is the package version. */
export function buildProgram(ctx: CliContext, version: string): Command {
  const program = new Command('toolsearch');
  program
    .description('Which tools would your agent find? An exact port of the Eino tool search middleware.')
    .version(version, '-V, --version', 'print the version')
    .option('--no-color', 'disable colors (also NO_COLOR=1)')
    .option('--verbose', 'print notes on stderr (such as why no cache is used)')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .configureOutput({
      writeOut: (s) => ctx.out(s),
      writeErr: (s) => ctx.err(s),
      // Commander's messages may quote argv: escape them like any other text.
      outputError: (s, write) =>
        write(
          s
            .split('\n')
            .map((line) => escapeText(line).replace(/^error:/, ctx.errStyle.red('error:')))
            .join('\n'),
        ),
    })
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXAMPLES)
    .hook('preAction', () => {
      ctx.noColorFlag = program.opts<{ color?: boolean }>().color === false;
    });
  for (const make of COMMANDS) {
    const cmd = make(ctx);
    cmd.copyInheritedSettings(program);
    program.addCommand(cmd);
  }
  return program;
}
