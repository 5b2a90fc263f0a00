import { describe, it } from 'vitest';
import { FX, lines, run } from './helpers.js';
import { FORMAT_CHOICES } from '../../src/formats/recordings/registry.js';

const SMALL = `${FX}/small.yaml`;
const CHAT = `${FX}/chat.json`;

describe.concurrent('bad input: one clear line (plus an excerpt), exit 2, no stack trace', () => {
  it.for([
    ['missing file', `${FX}/missing.yaml`, [`error: ${FX}/missing.yaml: no such file`]],
    ['a directory', FX, [`error: ${FX}: is a directory, not a file`]],
    ['an empty file', `${FX}/empty.json`, [`error: ${FX}/empty.json: empty file`]],
    [
      'invalid JSON: file:line:column and the line with a caret',
      `${FX}/invalid.json`,
      [
        `error: ${FX}/invalid.json:3:16: invalid JSON: expected ',' or '}', found '"'`,
        '    {"name": "b" "description": "y"}',
        '                 ^',
      ],
    ],
    [
      'truncated JSON',
      `${FX}/truncated.json`,
      [`error: ${FX}/truncated.json:4:1: invalid JSON: unexpected end of input`, '', '  ^'],
    ],
    [
      'invalid YAML',
      `${FX}/invalid.yaml`,
      [
        `error: ${FX}/invalid.yaml:3:18: invalid YAML: Missing closing "quote`,
        '      description: "unclosed',
        '                   ^',
      ],
    ],
    [
      'a tool without a string name',
      `${FX}/bad-name.yaml`,
      [
        `error: ${FX}/bad-name.yaml:2:11: tool name must be a string, found an array`,
        '    - name: [1, 2]',
        '            ^',
      ],
    ],
    [
      'no dynamic tools',
      `${FX}/only-static.yaml`,
      ['error: tools is required (the catalog has no dynamic tools: it is empty, or all of its tools are static)'],
    ],
  ] as const)('catalog: %s', async ([, file, expected], { expect }) => {
    const r = await run(['search', '-c', file, 'x']);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual(expected);
    expect(r.code).toBe(2);
  });

  it('catalog: an unknown shape says which shapes were tried', async ({ expect }) => {
    const r = await run(['search', '-c', `${FX}/unknown-shape.json`, 'x']);
    const err = lines(r.stderr);
    expect(err[0]).toMatch(
      new RegExp(
        `^error: ${FX}/unknown-shape.json:1:1: no known catalog shape ` +
          `fits \\(found an object without "tools"\\); tried `,
      ),
    );
    for (const shape of ['toolsearch', 'openai', 'anthropic', 'mcp', 'eino', 'request'])
      expect(err[0]).toContain(shape);
    expect(r.code).toBe(2);
  });

  it('catalog: a name defined twice names both places', async ({ expect }) => {
    const r = await run(['search', '-c', `${FX}/dup-a.yaml`, '-c', `${FX}/dup-b.yaml`, 'x']);
    expect(lines(r.stderr)[0]).toBe(
      `error: ${FX}/dup-b.yaml:4:5: duplicate tool name "a": first defined ` +
        `at ${FX}/dup-a.yaml:2:5, again at ${FX}/dup-b.yaml:4:5`,
    );
    expect(r.code).toBe(2);
  });

  it('no dynamic tools: simulate and select say "tools is required" too', async ({ expect }) => {
    const [sim, sel] = await Promise.all([
      run(['simulate', CHAT, '-c', `${FX}/only-static.yaml`]),
      run(['select', '-c', `${FX}/only-static.yaml`, 'a']),
    ]);
    for (const r of [sim, sel]) {
      expect(r.stderr).toBe(
        'error: tools is required (the catalog has no dynamic tools: it is empty, or all of its tools are static)\n',
      );
      expect(r.code).toBe(2);
    }
  });

  it('transcript: missing file and invalid JSON', async ({ expect }) => {
    const missing = await run(['simulate', `${FX}/missing.json`, '-c', SMALL]);
    expect(missing.stderr).toBe(`error: ${FX}/missing.json: no such file\n`);
    expect(missing.code).toBe(2);
    const invalid = await run(['simulate', `${FX}/invalid.json`]);
    expect(lines(invalid.stderr)[0]).toBe(
      `error: ${FX}/invalid.json:3:16: invalid JSON: expected ',' or '}', found '"'`,
    );
    expect(invalid.code).toBe(2);
  });

  it('transcript: an unknown role', async ({ expect }) => {
    const file = 'fixtures/formats/transcripts/unknown-role.json';
    const r = await run(['simulate', file, '-c', SMALL]);
    expect(lines(r.stderr)[0]).toBe(
      `error: ${file}:3:3: unknown role "robot" (expected system, user, assistant, tool)`,
    );
    expect(r.code).toBe(2);
  });

  it('input files are only read', async ({ expect }) => {
    const { statSync } = await import('node:fs');
    const before = statSync(SMALL).mtimeMs;
    await run(['search', '-c', SMALL, 'x']);
    expect(statSync(SMALL).mtimeMs).toBe(before);
  });
});

describe.concurrent('bad usage: exit 2', () => {
  it.for([
    [
      ['search', '-c', SMALL, '-n', '0', 'x'],
      "error: option '-n, --max-results <n>' argument '0' is invalid. Expected a positive integer.",
    ],
    [
      ['search', '-c', SMALL, '-n', 'abc', 'x'],
      "error: option '-n, --max-results <n>' argument 'abc' is invalid. Expected a positive integer.",
    ],
    [
      ['search', '-c', SMALL, '-n', '2.5', 'x'],
      "error: option '-n, --max-results <n>' argument '2.5' is invalid. Expected a positive integer.",
    ],
    [
      ['simulate', CHAT, '--mode', 'x'],
      "error: option '--mode <mode>' argument 'x' is invalid. Allowed choices are default, native.",
    ],
    [
      ['simulate', CHAT, '--format', 'x'],
      // Every recording format, as the reader registry lists them.
      `error: option '--format <format>' argument 'x' is invalid. Allowed choices are ${FORMAT_CHOICES.join(', ')}.`,
    ],
    [
      ['search', '-c', SMALL, '--catalog-format', 'x', 'q'],
      "error: option '--catalog-format <format>' argument 'x' is invalid. Allowed " +
        'choices are auto, toolsearch, openai, anthropic, mcp, eino, request, data, mcp-config.',
    ],
    [
      ['search', '-c', SMALL, '--batch', '-', '--args', '{}'],
      "error: option '--batch <file|->' cannot be used with option '--args <json>'",
    ],
    [
      ['search', '-c', SMALL, '--batch', '-', '--explain'],
      "error: option '--batch <file|->' cannot be used with option '--explain'",
    ],
    [
      ['search', '-c', SMALL, '--batch', '-', '--json'],
      "error: option '--batch <file|->' cannot be used with option '--json'",
    ],
    [
      ['search', '-c', SMALL, '--args', '{}', '-n', '3'],
      "error: option '-n, --max-results <n>' cannot be used with option '--args <json>'",
    ],
    [
      ['search', '-c', SMALL, '--expect-none', '--expect', 'a', 'q'],
      "error: option '--expect-none' cannot be used with option '--expect <a,b>'",
    ],
    [['search', '-c', SMALL, '--bogus', 'q'], "error: unknown option '--bogus'"],
    [['bogus'], "error: unknown command 'bogus'"],
  ] as const)('%j', async ([args, message], { expect }) => {
    const r = await run(args);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${message}\n(add --help for usage)\n`);
    expect(r.code).toBe(2);
  });

  it.for([
    [
      ['search', '-c', SMALL, '--args', '{"query":"x"}', 'words'],
      'error: give the query either as words or as --args, not both',
    ],
    [
      ['search', '-c', SMALL, '--batch', '-', 'words'],
      'error: --batch reads its queries from the file: give no query words',
    ],
    [['search', '-c', SMALL], 'error: a query is required: query words, --args <json> or --batch <file|->'],
    [['search', 'x'], 'error: a catalog is required: -c, --catalog <file>'],
    [['select', 'x'], 'error: a catalog is required: -c, --catalog <file>'],
  ] as const)('%j', async ([args, message], { expect }) => {
    const r = await run(args);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${message}\n`);
    expect(r.code).toBe(2);
  });

  it('no command: help on stderr, exit 2', async ({ expect }) => {
    const r = await run([]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: toolsearch \[options\] \[command\]/);
    expect(r.code).toBe(2);
  });
});
