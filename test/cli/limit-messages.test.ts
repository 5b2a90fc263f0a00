// Every size, depth and count limit of the loaders and the MCP client names
// the environment variable that raises it, in the exact text of its error,
// end to end through the BUILT CLI (`npm run build` first; NO_COLOR=1); and
// the variable does raise it (the same run with a higher value succeeds).
// The limits: src/io/read.ts (DEFAULT_LIMITS, LIMIT_VARIABLES).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_VARIABLES } from '../../src/io/read.js';
import { serverCommand, spawnHttpServer } from '../formats/mcp/helpers.js';
import { DEMO, run } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-limits-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

const raise = (variable: string): string => `set ${variable} to raise the limit`;
const SMALL = file('small.yaml', 'tools:\n  - {name: mcp__a__read_file, description: read a file}\n');

/** The run fails with exactly `stderr` (exit 2, nothing on stdout), and passes with `ok` set instead. */
async function limited(
  args: readonly string[],
  env: Record<string, string>,
  stderr: string,
  ok: Record<string, string>,
  input?: string,
): Promise<void> {
  const r = await run(args, { env, ...(input !== undefined ? { input } : {}) });
  expect(r.stderr).toBe(stderr);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(2);
  const raised = await run(args, { env: ok, ...(input !== undefined ? { input } : {}) });
  expect(raised.stderr).toBe('');
  expect(raised.code).toBe(0);
}

describe('each limit names the variable that raises it', () => {
  it('every limit has a variable, and no two share one', () => {
    expect(Object.keys(LIMIT_VARIABLES).sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
    expect(new Set(Object.values(LIMIT_VARIABLES)).size).toBe(Object.keys(DEFAULT_LIMITS).length);
  });

  it('TOOLSEARCH_MAX_BYTES: a file too large', async () => {
    await limited(
      ['search', '-c', DEMO, 'x', '--json'],
      { TOOLSEARCH_MAX_BYTES: '1000' },
      `error: ${DEMO}: file too large: 55657 bytes (limit 1000; ${raise('TOOLSEARCH_MAX_BYTES')})\n`,
      { TOOLSEARCH_MAX_BYTES: '60000' },
    );
  });

  it('TOOLSEARCH_MAX_BYTES: standard input too large (its size is known only as it arrives)', async () => {
    const text = `tools:\n${'  - {name: mcp__a__read_file, description: read a file}\n'.repeat(1)}${'#'.repeat(200)}\n`;
    await limited(
      ['search', '-c', '-', 'read', '--json'],
      { TOOLSEARCH_MAX_BYTES: '100' },
      `error: <stdin>: file too large: more than 100 bytes (limit 100; ${raise('TOOLSEARCH_MAX_BYTES')})\n`,
      { TOOLSEARCH_MAX_BYTES: '1000' },
      text,
    );
  });

  it('TOOLSEARCH_MAX_BYTES: a --batch line too long (an error line; the batch goes on)', async () => {
    const input = `{"query":"${'read '.repeat(30)}"}\n{"query":"read"}\n`;
    const r = await run(['search', '-c', SMALL, '--batch', '-'], { env: { TOOLSEARCH_MAX_BYTES: '100' }, input });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      JSON.stringify({
        schema_version: 1,
        error: `line too long: more than 100 bytes (${raise('TOOLSEARCH_MAX_BYTES')})`,
      }),
    );
    const raised = await run(['search', '-c', SMALL, '--batch', '-'], { env: { TOOLSEARCH_MAX_BYTES: '1000' }, input });
    expect(raised.stdout).not.toContain('error');
  });

  it('TOOLSEARCH_MAX_BYTES: a JSONL session too large', async () => {
    const r = await run(['simulate', 'fixtures/bulk/sessions.jsonl', '-c', SMALL, '--no-tokens', '--json'], {
      env: { TOOLSEARCH_MAX_BYTES: '500' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: 6 of 6 sessions failed to read (the others were replayed); first: fixtures/bulk/sessions.jsonl:1: ' +
        `session too large (limit 500 bytes; ${raise('TOOLSEARCH_MAX_BYTES')})\n`,
    );
  });

  it('TOOLSEARCH_MAX_DEPTH: JSON and YAML nesting, also through an alias', async () => {
    const json = file('deep.json', '{"tools": [{"name": "a_b", "parameters": {"a": {"b": {"c": 1}}}}]}');
    await limited(
      ['search', '-c', json, 'a', '--json'],
      { TOOLSEARCH_MAX_DEPTH: '4' },
      `error: ${json}:1:48: nesting deeper than 4 levels (${raise('TOOLSEARCH_MAX_DEPTH')})\n` +
        '  {"tools": [{"name": "a_b", "parameters": {"a": {"b": {"c": 1}}}}]}\n' +
        `${' '.repeat(49)}^\n`,
      { TOOLSEARCH_MAX_DEPTH: '6' },
    );
    const yaml = file('deep.yaml', 'tools:\n  - name: a_b\n    parameters: {a: {b: {c: 1}}}\n');
    const y = await run(['search', '-c', yaml, 'a'], { env: { TOOLSEARCH_MAX_DEPTH: '4' } });
    expect([y.code, y.stderr.split('\n')[0]]).toEqual([
      2,
      `error: ${yaml}:3:21: nesting deeper than 4 levels (${raise('TOOLSEARCH_MAX_DEPTH')})`,
    ]);
    const alias = file('deep-alias.yaml', 'x: &d {a: {b: {c: 1}}}\ntools:\n  - name: a_b\n    parameters: *d\n');
    const a = await run(['search', '-c', alias, 'a'], { env: { TOOLSEARCH_MAX_DEPTH: '4' } });
    expect([a.code, a.stderr.split('\n')[0]]).toEqual([
      2,
      `error: ${alias}:4:17: nesting deeper than 4 levels (through alias *d; ${raise('TOOLSEARCH_MAX_DEPTH')})`,
    ]);
  });

  it('TOOLSEARCH_MAX_ALIASES: YAML alias dereferences', async () => {
    const f = 'fixtures/formats/catalogs/aliases-ok.yaml';
    const r = await run(['search', '-c', f, 'file'], { env: { TOOLSEARCH_MAX_ALIASES: '1' } });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([
      2,
      `error: ${f}:8:17: too many YAML aliases (more than 1; ${raise('TOOLSEARCH_MAX_ALIASES')})`,
    ]);
    expect((await run(['search', '-c', f, 'file'], { env: { TOOLSEARCH_MAX_ALIASES: '2' } })).code).toBe(0);
  });

  it('TOOLSEARCH_MAX_ALIAS_VALUES: values YAML aliases add', async () => {
    const f = file('values.yaml', 'x: &v [1, 2, 3, 4]\ny: [*v, *v]\ntools:\n  - {name: a_b, description: d}\n');
    const r = await run(['search', '-c', f, 'a'], { env: { TOOLSEARCH_MAX_ALIAS_VALUES: '6' } });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([
      2,
      `error: ${f}:2:9: YAML aliases expand to more than 6 values (${raise('TOOLSEARCH_MAX_ALIAS_VALUES')})`,
    ]);
    expect((await run(['search', '-c', f, 'a'], { env: { TOOLSEARCH_MAX_ALIAS_VALUES: '10' } })).code).toBe(0);
  });

  it('TOOLSEARCH_MAX_ALIAS_BYTES: text YAML aliases add', async () => {
    const f = file('bytes.yaml', 'x: &t "0123456789"\ny: [*t, *t]\ntools:\n  - {name: a_b, description: d}\n');
    const r = await run(['search', '-c', f, 'a'], { env: { TOOLSEARCH_MAX_ALIAS_BYTES: '15' } });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([
      2,
      `error: ${f}:2:9: YAML aliases expand to more than 15 bytes of text (alias *t; ` +
        `${raise('TOOLSEARCH_MAX_ALIAS_BYTES')})`,
    ]);
    expect((await run(['search', '-c', f, 'a'], { env: { TOOLSEARCH_MAX_ALIAS_BYTES: '20' } })).code).toBe(0);
  });

  it('TOOLSEARCH_MAX_MESSAGES: messages of one transcript', async () => {
    const t = 'fixtures/transcripts/keyword-search-then-call.json';
    const r = await run(['simulate', t, '-c', DEMO, '--no-tokens'], { env: { TOOLSEARCH_MAX_MESSAGES: '3' } });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([
      2,
      `error: ${t}:24:3: too many messages: more than 3 (${raise('TOOLSEARCH_MAX_MESSAGES')})`,
    ]);
    expect(
      (await run(['simulate', t, '-c', DEMO, '--no-tokens'], { env: { TOOLSEARCH_MAX_MESSAGES: '100' } })).code,
    ).toBe(0);
  });

  // MCP servers start in these runs: more time than a loader's check, on a loaded machine.
  it('TOOLSEARCH_MAX_MCP_MESSAGE_BYTES: a stdio line', { timeout: 60_000 }, async () => {
    const cmd = serverCommand(['--tools', '2']);
    await limited(
      ['search', '-c', `mcp:${cmd}`, 'issue', '--json'],
      { TOOLSEARCH_MAX_MCP_MESSAGE_BYTES: '100' },
      `error: mcp:${cmd}: the server wrote a line on stdout larger than 100 bytes, the most one MCP message may ` +
        `take (${raise('TOOLSEARCH_MAX_MCP_MESSAGE_BYTES')})\n`,
      { TOOLSEARCH_MAX_MCP_MESSAGE_BYTES: '100000' },
    );
  });

  it('TOOLSEARCH_MAX_MCP_MESSAGE_BYTES: an HTTP answer', { timeout: 60_000 }, async () => {
    const server = await spawnHttpServer(['--tools', '2']);
    try {
      const r = await run(['search', '-c', `mcp:${server.url}`, 'issue'], {
        env: { TOOLSEARCH_MAX_MCP_MESSAGE_BYTES: '100' },
      });
      expect(r.stderr).toBe(
        `error: mcp:${server.url}: the answer to initialize is larger than 100 bytes, the most one MCP message ` +
          `may take (${raise('TOOLSEARCH_MAX_MCP_MESSAGE_BYTES')})\n`,
      );
      expect(r.code).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('TOOLSEARCH_MAX_MCP_PAGES: pages of tools/list', { timeout: 60_000 }, async () => {
    const cmd = serverCommand(['--tools', '5', '--page-size', '1']);
    await limited(
      ['search', '-c', `mcp:${cmd}`, 'issue', '--json'],
      { TOOLSEARCH_MAX_MCP_PAGES: '3' },
      `error: mcp:${cmd}: tools/list still returned a cursor after 3 pages (${raise('TOOLSEARCH_MAX_MCP_PAGES')})\n`,
      { TOOLSEARCH_MAX_MCP_PAGES: '5' },
    );
  });

  it('TOOLSEARCH_MAX_DEPTH: an MCP tool inputSchema (import)', { timeout: 60_000 }, async () => {
    const cmd = serverCommand(['--tools', '1']);
    const r = await run(['import', '--mcp', cmd], { env: { TOOLSEARCH_MAX_DEPTH: '4' } });
    expect(r.stderr).toBe(
      `error: mcp:${cmd}: server "Test Server!", tool "create_issue": its inputSchema is nested deeper than 4 ` +
        `levels (counted as parameters in a catalog file; ${raise('TOOLSEARCH_MAX_DEPTH')})\n`,
    );
    expect(r.code).toBe(2);
  });

  it('a bad value of any of them is a usage error naming it', { timeout: 60_000 }, async () => {
    for (const name of Object.values(LIMIT_VARIABLES)) {
      const r = await run(['search', '-c', SMALL, 'x'], { env: { [name]: 'lots' } });
      const kind = name === 'TOOLSEARCH_MAX_ALIASES' ? 'non-negative' : 'positive';
      expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${name} must be a ${kind} integer, got "lots"\n` });
    }
  });
});
