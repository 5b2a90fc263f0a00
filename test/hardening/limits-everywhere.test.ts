/**
 * Issue 27's rule: every input kind honours the `TOOLSEARCH_MAX_*` variables, each error naming the variable that
 * raises its bound. One valid input of each kind, read once with the defaults (it passes) and once under each
 * bound it can cross (it fails, exit 2, or — a session of a bulk replay — fails that session, counted). Before,
 * `aggregate` read its parts with the default limits, and JSON inside an OTel attribute or an SSE event too.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, inproc, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-limits-everywhere-');
afterAll(() => tmp.cleanup());

const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
const session = JSON.stringify([
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello', extra: { x: deep(6) } },
]);
const pad = 'p'.repeat(400);

interface Kind {
  readonly name: string;
  /** The argv, given the temporary directory. */
  readonly argv: () => string[];
  readonly stdin?: () => string;
  /** The variables it is read under, each with a value it crosses. */
  readonly bounds: Readonly<Record<string, string>>;
  /** Run as a process: `-c -` reads standard input's descriptor itself. */
  readonly spawn?: boolean;
}

const file = (name: string, text: string) => tmp.file(name, text);

const KINDS: Kind[] = [
  {
    name: 'a JSON catalog',
    argv: () => [
      'search',
      '-c',
      file('c.json', JSON.stringify({ tools: [{ name: 'a', description: pad, parameters: deep(6) }] })),
      'a',
    ],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '4' },
  },
  {
    name: 'a YAML catalog',
    argv: () => [
      'search',
      '-c',
      file('c.yaml', `x: &x {a: {b: {c: {d: 1}}}}\ntools:\n  - name: a\n    description: ${pad}\n    parameters: *x\n`),
      'a',
    ],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '3', TOOLSEARCH_MAX_ALIASES: '0' },
  },
  {
    name: 'a catalog on stdin',
    argv: () => ['search', '-c', '-', 'a'],
    stdin: () => JSON.stringify({ tools: [{ name: 'a', description: pad, parameters: deep(6) }] }),
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '4' },
    spawn: true,
  },
  {
    name: 'a recording',
    argv: () => ['simulate', file('t.json', session.replace('hello', pad)), '-c', DEMO, '--no-tokens'],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '5', TOOLSEARCH_MAX_MESSAGES: '1' },
  },
  {
    name: 'a session of a bulk replay',
    argv: () => [
      'simulate',
      file('s.jsonl', `${session.replace('hello', pad)}\n`),
      '-c',
      DEMO,
      '--no-tokens',
      '--jobs',
      '1',
    ],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '5', TOOLSEARCH_MAX_MESSAGES: '1' },
  },
  {
    name: 'sessions on stdin',
    argv: () => ['simulate', '-', '-c', DEMO, '--no-tokens', '--jobs', '1'],
    stdin: () => `${session.replace('hello', pad)}\n`,
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '5', TOOLSEARCH_MAX_MESSAGES: '1' },
  },
  {
    name: 'a suite',
    argv: () => [
      'test',
      file(
        'suite.yaml',
        `catalog: ${DEMO}\ncases:\n  - name: ${pad}\n    query: slack send\n` +
          '    includes: &x [mcp__slack__send_message]\n' +
          '  - name: b\n    query: slack send\n    includes: *x\n',
      ),
    ],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '3', TOOLSEARCH_MAX_ALIASES: '0' },
  },
  {
    name: 'labeled queries',
    argv: () => [
      'eval',
      '-c',
      DEMO,
      file(
        'q.jsonl',
        `${JSON.stringify({ query: `slack ${pad}`, relevant: ['mcp__slack__send_message'], x: deep(6) })}\n`,
      ),
    ],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '4' },
  },
  {
    name: 'an aggregate part',
    argv: () => ['aggregate', join(tmp.dir, 'part.json')],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '2' },
  },
  {
    name: 'an MCP client config',
    argv: () => [
      'search',
      '-c',
      file(
        'cfg.mcp.json',
        JSON.stringify({ mcpServers: { s: { command: 'x', args: [pad], env: { A: 'b' } } }, x: deep(6) }),
      ),
      'a',
    ],
    bounds: { TOOLSEARCH_MAX_BYTES: '200', TOOLSEARCH_MAX_DEPTH: '4' },
  },
];

describe('every input kind honours TOOLSEARCH_MAX_*', () => {
  it.each(KINDS)('$name', async (kind) => {
    if (kind.name === 'an aggregate part') {
      const part = await inproc([
        'simulate',
        file('one.jsonl', `${session}\n`),
        '-c',
        DEMO,
        '--no-tokens',
        '--json',
        '--jobs',
        '1',
      ]);
      expect(part.code, part.stderr).toBe(0);
      file('part.json', part.stdout);
    }
    const argv = kind.argv();
    const stdin = kind.stdin?.();
    const cli = kind.spawn === true ? spawnCli : inproc;
    const ok = await cli(argv, stdin !== undefined ? { stdin } : {});
    // The MCP config starts nothing: its one server names no program; that it got that far is the point.
    if (kind.name === 'an MCP client config') expect(ok.stderr).toContain('server "s"');
    else expect(ok.code, ok.stderr).toBeLessThanOrEqual(1);
    for (const [variable, value] of Object.entries(kind.bounds)) {
      const r = await cli(argv, { env: { [variable]: value }, ...(stdin !== undefined ? { stdin } : {}) });
      expect(r.code, `${variable}=${value}: ${r.stderr}`).toBe(2);
      expect(`${r.stdout}\n${r.stderr}`, `${variable}=${value}`).toContain(`set ${variable} to raise the limit`);
    }
  });
});
