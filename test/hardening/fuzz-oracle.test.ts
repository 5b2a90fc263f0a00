/**
 * The fuzzer's own safeguards can fail (test/fuzz/): its HTML check passes
 * every report the built CLI writes from the hostile fixtures and fails each
 * kind of markup that escaped escaping; its rule for MCP client configs lets
 * only the harmless server script and the unreachable URL start, and the
 * guard it adds otherwise (`--server` with a key no config has) stops the CLI
 * before any server starts. `npm run build` first.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFile } from '../../src/io/parse.js';
import { mightBeClientConfig, readClientConfig } from '../../src/formats/mcp/client-config.js';
import { DEMO, HOSTILE, ROOT, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-fuzz-oracle-');
afterAll(() => tmp.cleanup());

// The fuzzer is plain JavaScript: loaded by path, typed here by what the tests use.
interface Classify {
  checkHtml(text: string): string | null;
  classify(
    run: { argv: string[]; output: string },
    r: { code: number; stdout: string; stderr: string },
  ): { verdict: string; reason?: string };
}
interface Configs {
  readonly MCP_SERVER_SCRIPT: string;
  readonly UNREACHABLE_URL: string;
  readonly NO_SUCH_SERVER: string;
  configSeeds(): Array<{ rel: string; bytes: Buffer }>;
  safeToStart(reader: unknown, file: string, envs: readonly NodeJS.ProcessEnv[], cwd: string): boolean;
}
const load = <T>(name: string): Promise<T> => import(join(ROOT, 'test/fuzz', name)) as Promise<T>;

describe('the fuzzer checks HTML strictly', () => {
  it('every HTML report of the hostile fixtures passes; each injected payload fails', { timeout: 60_000 }, async () => {
    const { checkHtml } = await load<Classify>('classify.mjs');
    const out = (name: string) => join(tmp.dir, `${name}.html`);
    const runs: Array<[string, string[]]> = [
      [
        'simulate',
        ['simulate', join(HOSTILE, 'html.transcript.json'), '-c', join(HOSTILE, 'html.catalog.json'), '--no-tokens'],
      ],
      ['eval', ['eval', join(HOSTILE, 'html.queries.jsonl'), '-c', join(HOSTILE, 'html.catalog.json')]],
      ['aggregate', ['aggregate', join(ROOT, 'fixtures/bulk/part-1.json'), join(ROOT, 'fixtures/bulk/part-2.json')]],
    ];
    for (const [name, args] of runs) {
      const r = await spawnCli([...args, '--html', out(name)]);
      expect(r.code, r.stderr).toBe(0);
    }
    const t = await spawnCli(['test', join(HOSTILE, 'html.suite.yaml'), '-r', 'html', '-o', out('test')]);
    expect(t.code, t.stderr).toBe(1); // two cases fail on purpose
    const pages = ['simulate', 'eval', 'aggregate', 'test'].map((n) => readFileSync(out(n), 'utf8'));
    for (const page of pages) expect(checkHtml(page)).toBeNull();
    // The payloads are in the pages, as text.
    expect(pages[0]).toContain('&lt;script&gt;');

    const page = pages[0]!;
    const at = page.indexOf('<main>') + '<main>'.length;
    const inject = (s: string) => checkHtml(page.slice(0, at) + s + page.slice(at));
    expect(inject('<script>window.pwned=1</script>')).toMatch(/a <script> the CSP does not allow/);
    expect(inject('<SCRIPT>x</SCRIPT>')).toMatch(/not a tag the reports write/);
    expect(inject('<b onmouseover="x()">y</b>')).toMatch(/an event handler attribute \(onmouseover\)/);
    expect(inject('<a href="javascript:alert(1)">y</a>')).toMatch(/a link out of the page/);
    expect(inject('<img src=x onerror=alert(1)>')).toMatch(/not a tag the reports write/);
    expect(inject('<div>')).toMatch(/<\/main> closes <div>/);
    expect(inject('</div>')).toMatch(/<\/div> closes <main>/);
    expect(inject('a & b')).toMatch(/a bare & in text/);
    expect(inject('"><')).toMatch(/a bare > in text/);
    expect(inject('<span title="x" data="y">z</span>')).toMatch(/never write \(data\)/);
    expect(inject('\u202e')).toMatch(/raw control character in the HTML: U\+202e/);
    expect(checkHtml(page.replace("default-src 'none'", "default-src 'self'"))).toMatch(/no CSP/);
  });
});

describe("the fuzzer reads import's YAML catalog as data", () => {
  it('a long tool name passes; a long comment line, invalid YAML or a raw control character fails', async () => {
    const { classify } = await load<Classify>('classify.mjs');
    const run = { argv: ['import', '--config', 'c.json'], output: 'catalog' };
    const verdict = (stdout: string) => classify(run, { code: 0, stdout, stderr: '' });
    const name = `mcp__${'k'.repeat(6000)}__t`;
    expect(verdict(`# made by import\ntools:\n  - name: ${name}\n    description: d\n`).verdict).toBe('result');
    expect(verdict(`# ${name}\ntools: []\n`)).toEqual({ verdict: 'failure', reason: expect.stringMatching(/line/) });
    expect(verdict('tools: [\n').verdict).toBe('failure');
    expect(verdict('tools:\n  - name: a\u001b[2J\n').verdict).toBe('failure');
  });
});

describe('the fuzzer starts no MCP server but its own harmless one', () => {
  const reader = { parseFile, readClientConfig, mightBeClientConfig };
  let k = 0;
  const file = (value: unknown, ext = '.mcp.json') => {
    const f = join(tmp.dir, `c${k++}${ext}`);
    writeFileSync(f, typeof value === 'string' ? value : JSON.stringify(value));
    return f;
  };

  it('the seeds are safe; any other program, Node option, variable or URL is not', async () => {
    const { configSeeds, safeToStart, MCP_SERVER_SCRIPT, UNREACHABLE_URL } = await load<Configs>('mcp-configs.mjs');
    const env = { ...process.env, FUZZ_NODE: process.execPath, FUZZ_MCP_SERVER: MCP_SERVER_SCRIPT };
    const safe = (f: string, e: NodeJS.ProcessEnv = env) => safeToStart(reader, f, [e], tmp.dir);
    // Every seed may start as it is, but the one with a ${input:…} (it does not read: its error is the point).
    const seeds = configSeeds();
    expect(seeds.filter((s) => !safe(file(s.bytes.toString()))).map((s) => s.rel)).toEqual([
      'catalogs/fuzz-mcp-f.vscode.json',
    ]);
    const node = process.execPath;
    const ok = { command: node, args: [MCP_SERVER_SCRIPT, 'ok'] };
    expect(safe(file({ mcpServers: { a: ok, b: { type: 'http', url: UNREACHABLE_URL } } }))).toBe(true);
    expect(safe(file({ mcpServers: { a: ok, off: { command: 'rm', args: ['-rf', '/'], disabled: true } } }))).toBe(
      true,
    );
    expect(safe(file({ tools: [{ name: 'a', description: 'b' }] }))).toBe(true); // no config: nothing starts
    const unsafe = [
      { mcpServers: { a: { command: 'sh', args: ['-c', 'true'] } } },
      { mcpServers: { a: { command: node, args: ['-e', 'process.exit()', MCP_SERVER_SCRIPT] } } },
      { mcpServers: { a: { command: node, args: ['--require', '/tmp/x.js', MCP_SERVER_SCRIPT] } } },
      { mcpServers: { a: { ...ok, env: { NODE_OPTIONS: '--require /tmp/x.js' } } } },
      { mcpServers: { a: { command: '${FUZZ_OTHER:-sh}', args: [MCP_SERVER_SCRIPT] } } },
      { mcpServers: { a: { type: 'http', url: 'http://127.0.0.1:8080/mcp' } } },
      { servers: { a: { type: 'sse', url: 'https://example.com/sse' } } },
      { servers: { a: { command: '${env:SHELL}' } } },
      '{"mcpServers": {"a": ',
    ];
    for (const value of unsafe) expect(safe(file(value)), JSON.stringify(value)).toBe(false);
    // The same config under another environment: a variable decides.
    const viaVar = file({ mcpServers: { a: { command: '${FUZZ_NODE}', args: ['${FUZZ_MCP_SERVER}'] } } });
    expect(safe(viaVar)).toBe(true);
    expect(safe(viaVar, { ...env, FUZZ_NODE: '/bin/sh' })).toBe(false);
  });

  it('the guard (--server with a key no config has) stops the CLI before any server starts', async () => {
    const { NO_SUCH_SERVER } = await load<Configs>('mcp-configs.mjs');
    const marker = join(tmp.dir, 'started');
    const script = join(tmp.dir, 'server.cjs');
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran\\n');\n`);
    const config = file({ mcpServers: { local: { command: process.execPath, args: [script] } } });
    for (const args of [
      ['search', '-c', config, 'x'],
      ['search', '-c', DEMO, '-c', config, 'x'],
      ['import', '--config', config],
      ['simulate', join(ROOT, 'fixtures/transcripts/keyword-search-then-call.json'), '-c', config],
    ]) {
      const r = await spawnCli([args[0]!, '--server', NO_SUCH_SERVER, ...args.slice(1)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: --server ${NO_SUCH_SERVER}: no such server in `));
      expect(existsSync(marker)).toBe(false);
    }
    // Control: without the guard the server starts (and is no MCP server).
    const r = await spawnCli(['search', '-c', config, '--mcp-timeout', '5', 'x']);
    expect(r.code).toBe(2);
    expect(existsSync(marker)).toBe(true);
  });
});
