/**
 * A run of one command builds the program with that command alone (its
 * module is the only one loaded, src/cli/commands.ts): that program must
 * parse, check and answer exactly as the whole one does.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandsFor } from '../../src/cli/commands.js';
import { CliContext, type OutStream } from '../../src/cli/context.js';
import { buildProgram } from '../../src/cli/program.js';

function sink(): OutStream & { text: string } {
  return {
    text: '',
    isTTY: false,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  } as OutStream & { text: string };
}

/** What parsing `argv` with a program of `commands` prints and throws (commander throws instead of exiting). */
async function parse(argv: string[], commands: typeof COMMANDS) {
  const stdout = sink();
  const stderr = sink();
  const ctx = new CliContext({ stdout, stderr, stdin: Readable.from([]), env: { NO_COLOR: '1', COLUMNS: '100' } });
  let thrown: unknown = null;
  try {
    await (await buildProgram(ctx, '0.0.0-test', commands)).parseAsync(argv, { from: 'user' });
  } catch (err) {
    const e = err as { name?: string; code?: unknown; exitCode?: unknown; message?: string };
    thrown = { name: e.name, code: e.code, exitCode: e.exitCode, message: e.message };
  }
  return { stdout: stdout.text, stderr: stderr.text, thrown };
}

describe('the commands a run needs', () => {
  it('every entry names the command its module makes', async () => {
    const ctx = new CliContext({ stdout: sink(), stderr: sink(), stdin: Readable.from([]), env: {} });
    const made = await Promise.all(COMMANDS.map(async (c) => (await c.load())(ctx)));
    expect(made.map((cmd) => cmd.name())).toEqual(COMMANDS.map((c) => c.name));
    expect(made.flatMap((cmd) => cmd.aliases())).toEqual([]);
  });

  it('one command when argv starts with its name; all for help, options first, unknown words, completion', () => {
    expect(commandsFor(['search', '-c', 'x.yaml', 'q']).map((c) => c.name)).toEqual(['search']);
    expect(commandsFor(['simulate', 'a.json']).map((c) => c.name)).toEqual(['simulate']);
    for (const argv of [[], ['help', 'search'], ['--no-color', 'search'], ['serach'], ['completion', 'bash']]) {
      expect(commandsFor(argv)).toBe(COMMANDS);
    }
  });

  const cases = COMMANDS.filter((c) => c.name !== 'completion').flatMap((c) => [
    [c.name, '--help'],
    [c.name, '--no-such-flag'],
    [c.name, '--no-color', '-h'],
    [c.name, '--verbose', '--json', '-c'],
    [c.name, 'help'],
  ]);
  it.each(cases)('%s %s %s %s: the same output and error with that command alone as with all', async (...argv) => {
    const alone = await parse(argv, commandsFor(argv));
    expect(commandsFor(argv)).toHaveLength(1);
    expect(alone).toEqual(await parse(argv, COMMANDS));
    expect(alone.thrown).not.toBeNull(); // every case ends in help or an error (commander throws for both)
    if (argv[1] === '--help') expect(alone.stdout).toContain(`Usage: toolsearch ${argv[0]} [options]`);
    if (argv[1] === '--no-such-flag') expect(alone.stderr).toContain("error: unknown option '--no-such-flag'");
  });
});
