/** The commander program: global options, output wiring, and the registered commands. */
import { Command } from 'commander';
import { UsageError } from '../io/errors.js';
import { escapeText } from '../io/escape.js';
import type { CommandEntry } from './commands.js';
import type { CliContext } from './context.js';

const EXAMPLES = `
Examples:
  $ toolsearch search -c fixtures/catalogs/demo.yaml create issue
  $ toolsearch search -c fixtures/catalogs/demo.yaml --args '{"query":"+slack message","max_results":3}' --explain
  $ toolsearch select -c fixtures/catalogs/demo.yaml mcp__github__create_issue mcp__slack__send_message --json
  $ toolsearch simulate fixtures/transcripts/keyword-search-then-call.json -c fixtures/catalogs/demo.yaml
  $ toolsearch <command> --help

Exit codes: 0 ok, 1 an expectation or check failed, 2 bad input or usage,
70 an internal error (a bug in toolsearch; TOOLSEARCH_DEBUG=1 shows the stack).
Colors: on a terminal only; --no-color, NO_COLOR=1 or FORCE_COLOR=0 turn them off, FORCE_COLOR=1 forces them.
`;

/** The exit code every command shares, listed at the end of every command's help. */
const INTERNAL_EXIT = 'Exit code 70: an internal error (a bug in toolsearch; TOOLSEARCH_DEBUG=1 shows the stack).';

/** Builds the program with `commands` (all, or those of `commandsFor`); `version` is the package version. */
export async function buildProgram(
  ctx: CliContext,
  version: string,
  commands: readonly CommandEntry[],
): Promise<Command> {
  const factories = await Promise.all(commands.map((c) => c.load()));
  const program = new Command('toolsearch');
  program
    .description('Which tools would your agent find? An exact port of the Eino tool search middleware.')
    .version(version, '-V, --version', 'print the version')
    .option('--no-color', 'disable colors (also NO_COLOR=1)')
    .option('--verbose', 'print notes on stderr (why no cache is used, how many threads a bulk replay used)')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
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
    .addHelpText('after', EXAMPLES);
  for (const make of factories) {
    const cmd = make(ctx);
    cmd.copyInheritedSettings(program);
    cmd.addHelpText('after', INTERNAL_EXIT);
    program.addCommand(cmd);
  }
  // Our own help command: commander's prints the program's help (exit 2) for a name it does not know.
  program
    .command('help')
    .argument('[command]', 'a command')
    .description('show help for a command')
    .action((name: string | undefined) => {
      if (name === undefined) return program.outputHelp();
      const cmd = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (!cmd || cmd.name() === 'help') {
        const names = program.commands.map((c) => c.name());
        const near = names.filter((n) => n.startsWith(name.slice(0, 2)) || name.startsWith(n.slice(0, 3)));
        throw new UsageError(
          `unknown command ` +
            `'${name}'${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}; commands: ${names.join(', ')}`,
        );
      }
      cmd.outputHelp();
    });
  return program;
}
