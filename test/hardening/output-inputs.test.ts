/**
 * Issue 14, finding 2: an output never overwrites an input of the run
 * (src/io/output.ts). Through the built CLI (`npm run build` first):
 * exit 2 before anything runs, the exact message, nothing on stdout, and the
 * input byte for byte as it was. On c63dd70 each of these exited 0 (or 2
 * after writing) with the input replaced by the report.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverCommand } from '../formats/mcp/helpers.js';
import { ROOT, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-output-inputs-');
afterAll(() => tmp.cleanup());
let n = 0;

/** A directory with a catalog, a transcript and a suite naming both (every case passes). */
function project(): { dir: string; suite: string; catalog: string; transcript: string; bytes: () => string[] } {
  const dir = join(tmp.dir, `p${n++}`);
  mkdirSync(dir);
  const catalog = join(dir, 'cat.json');
  copyFileSync(join(ROOT, 'fixtures/catalogs/demo.mcp.json'), catalog);
  const transcript = join(dir, 't.json');
  copyFileSync(join(ROOT, 'fixtures/transcripts/keyword-search-then-call.json'), transcript);
  const suite = join(dir, 's.yaml');
  writeFileSync(
    suite,
    [
      'catalog: cat.json',
      'cases:',
      '  - name: finds the Slack tool',
      '    query: slack send message',
      '    first: mcp__slack__send_message',
      '  - name: the recording replays',
      '    transcript: t.json',
      '    no_violations: true',
      '',
    ].join('\n'),
  );
  const files = [suite, catalog, transcript];
  return { dir, suite, catalog, transcript, bytes: () => files.map((f) => readFileSync(f, 'latin1')) };
}

const overwrite = (path: string, kind: string, same?: string): string =>
  `error: --output ${path} would overwrite ` +
  `the ${kind}${same === undefined ? '' : ` (the same file as ${same})`}, an input of this ` +
  `run: write it to another file\n`;

describe.concurrent('finding 2: an output that is an input of the run is exit 2, before anything runs', () => {
  it.each([
    ['the suite', 'suite', (p: ReturnType<typeof project>) => p.suite],
    ['the catalog it names', 'catalog', (p: ReturnType<typeof project>) => p.catalog],
    ['the transcript it names', 'transcript', (p: ReturnType<typeof project>) => p.transcript],
  ])('test -r junit -o <%s>', async (_label, kind, target) => {
    const p = project();
    const before = p.bytes();
    const r = await spawnCli(['test', p.suite, '-r', 'junit', '-o', target(p)]);
    expect(r).toEqual({ code: 2, signal: null, stdout: '', stderr: overwrite(target(p), kind) });
    expect(p.bytes()).toEqual(before);
  });

  it('a symbolic link to the suite, and a hard link of the catalog, are the same file', async () => {
    const p = project();
    const before = p.bytes();
    const link = join(p.dir, 'report.xml');
    symlinkSync(p.suite, link);
    const r1 = await spawnCli(['test', p.suite, '-r', 'junit', '-o', link]);
    expect(r1).toEqual({ code: 2, signal: null, stdout: '', stderr: overwrite(link, 'suite', p.suite) });
    const hard = join(p.dir, 'hard.xml');
    linkSync(p.catalog, hard);
    const r2 = await spawnCli(['test', p.suite, '-r', 'tap', '--output', hard]);
    expect(r2).toEqual({ code: 2, signal: null, stdout: '', stderr: overwrite(hard, 'catalog', p.catalog) });
    expect(p.bytes()).toEqual(before);
  });

  it("an invalid suite after a valid one: the error report is not written over the first suite's catalog", async () => {
    const p = project();
    const before = p.bytes();
    const bad = join(p.dir, 'bad.yaml');
    writeFileSync(bad, 'cases: 3\n');
    const r = await spawnCli(['test', p.suite, bad, '-r', 'junit', '-o', p.catalog]);
    expect(r).toEqual({ code: 2, signal: null, stdout: '', stderr: overwrite(p.catalog, 'catalog') });
    expect(p.bytes()).toEqual(before);
  });

  it('import -o onto the server script its --mcp command line names', async () => {
    const dir = join(tmp.dir, `i${n++}`);
    mkdirSync(dir);
    const script = join(dir, 'server.mjs');
    const original = serverCommand(['--tools', '1']);
    // The test server, copied: its command line names the copy.
    const source = original.split(' ')[1]!.replace(/^'|'$/g, '');
    copyFileSync(source, script);
    const before = readFileSync(script, 'latin1');
    const r = await spawnCli(['import', '--mcp', `${process.execPath} ${script} --tools 1`, '-o', script]);
    expect(r).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr:
        `error: --output ${script} would overwrite the file named by ` +
        `--mcp, an input of this run: write it to another file\n`,
    });
    expect(readFileSync(script, 'latin1')).toBe(before);
  });

  it('control: an output of its own is written, and the inputs stay as they were', async () => {
    const p = project();
    const before = p.bytes();
    const out = join(p.dir, 'junit.xml');
    const r = await spawnCli(['test', p.suite, '-r', 'junit', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml[^]*<testsuites [^]*tests="2"/);
    expect(p.bytes()).toEqual(before);
  });

  it('simulate (bulk) --aggregate onto a session file or the catalog', async () => {
    const p = project();
    const other = join(p.dir, 't2.json');
    copyFileSync(p.transcript, other);
    const before = [...p.bytes(), readFileSync(other, 'latin1')];
    const args = ['simulate', p.transcript, other, '-c', p.catalog, '--no-tokens'];
    const r1 = await spawnCli([...args, '--aggregate', other]);
    expect(r1).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr:
        `error: --aggregate ${other} would overwrite the session file, ` +
        `an input of this run: write it to another file\n`,
    });
    const r2 = await spawnCli([...args, '--aggregate', p.catalog]);
    expect(r2).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr:
        `error: --aggregate ${p.catalog} would overwrite the catalog, ` +
        `an input of this run: write it to another file\n`,
    });
    expect([...p.bytes(), readFileSync(other, 'latin1')]).toEqual(before);
    // Control: an aggregate file of its own.
    const agg = join(p.dir, 'agg.json');
    const ok = await spawnCli([...args, '--aggregate', agg, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(agg, 'utf8'))).toEqual(JSON.parse(ok.stdout));
  });
});

/**
 * A directory with a server script that, if it ever ran, would leave a marker file (so "before
 * anything runs" is observed, not assumed), an MCP client config whose one server runs it, and
 * suites whose catalog is that config or an `mcp:` command line running it.
 */
function mcpProject(): {
  dir: string;
  script: string;
  config: string;
  suite: string;
  mcpSuite: string;
  marker: string;
  bytes: () => string[];
} {
  const dir = join(tmp.dir, `m${n++}`);
  mkdirSync(dir);
  const marker = join(dir, 'started');
  const script = join(dir, 'server.cjs');
  writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran\\n');\n`);
  const config = join(dir, 'servers.mcp.json');
  writeFileSync(
    config,
    `${JSON.stringify({ mcpServers: { local: { command: process.execPath, args: [script] } } })}\n`,
  );
  const cases = [
    'cases:',
    '  - name: finds an issue tool',
    '    query: create issue',
    '    includes: [mcp__local__create_issue]',
    '',
  ];
  const suite = join(dir, 's.yaml');
  writeFileSync(suite, ['catalog: servers.mcp.json', ...cases].join('\n'));
  const mcpSuite = join(dir, 'm.yaml');
  writeFileSync(mcpSuite, [`catalog: ${JSON.stringify(`mcp:${process.execPath} ${script}`)}`, ...cases].join('\n'));
  const files = [script, config, suite, mcpSuite];
  return { dir, script, config, suite, mcpSuite, marker, bytes: () => files.map((f) => readFileSync(f, 'latin1')) };
}

const refused = (option: string, path: string, kind: string): string =>
  `error: ${option} ${path} would overwrite the ${kind}, an input of this run: write it to another file\n`;

describe.concurrent('finding 2: the files of MCP catalogs (client configs, mcp: command lines) are inputs too', () => {
  it("test -o <the suite's client config>: exit 2, no server started", async () => {
    const p = mcpProject();
    const before = p.bytes();
    const r = await spawnCli(['test', p.suite, '-r', 'junit', '-o', p.config]);
    expect(r).toEqual({ code: 2, signal: null, stdout: '', stderr: refused('--output', p.config, 'catalog') });
    expect(p.bytes()).toEqual(before);
    expect(existsSync(p.marker)).toBe(false);
  });

  it('test -o <the script a server of that config runs>: exit 2, no server started', async () => {
    const p = mcpProject();
    const before = p.bytes();
    const r = await spawnCli(['test', p.suite, '-r', 'html', '-o', p.script]);
    expect(r).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refused('--output', p.script, `file named by server "local" of "${p.config}"`),
    });
    expect(p.bytes()).toEqual(before);
    expect(existsSync(p.marker)).toBe(false);
  });

  it("test -o <the script the suite's mcp: command line runs>: exit 2, no server started", async () => {
    const p = mcpProject();
    const before = p.bytes();
    const r = await spawnCli(['test', p.mcpSuite, '-r', 'json', '-o', p.script]);
    expect(r).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refused('--output', p.script, 'file named by an mcp: catalog'),
    });
    expect(p.bytes()).toEqual(before);
    expect(existsSync(p.marker)).toBe(false);
  });

  it('import --config -o <the script a server of the config runs>: exit 2, no server started', async () => {
    const p = mcpProject();
    const before = p.bytes();
    const r = await spawnCli(['import', '--config', p.config, '-o', p.script]);
    expect(r).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refused('--output', p.script, `file named by server "local" of "${p.config}"`),
    });
    expect(p.bytes()).toEqual(before);
    expect(existsSync(p.marker)).toBe(false);
  });

  it('eval/simulate -c <config> --html <its server script or the config>: exit 2, no server started', async () => {
    const p = mcpProject();
    const before = p.bytes();
    const queries = join(p.dir, 'q.jsonl');
    writeFileSync(queries, '{"query":"create issue","relevant":["mcp__local__x"]}\n');
    const transcript = join(ROOT, 'fixtures/transcripts/keyword-search-then-call.json');
    const e = await spawnCli(['eval', queries, '-c', p.config, '--html', p.script]);
    expect(e).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refused('--html', p.script, `file named by server "local" of "${p.config}"`),
    });
    const s = await spawnCli(['simulate', transcript, '-c', `mcp:${process.execPath} ${p.script}`, '--html', p.script]);
    expect(s).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refused('--html', p.script, 'file named by an mcp: catalog'),
    });
    const b = await spawnCli(['simulate', transcript, transcript, '-c', p.config, '--aggregate', p.config]);
    expect(b).toEqual({ code: 2, signal: null, stdout: '', stderr: refused('--aggregate', p.config, 'catalog') });
    expect(p.bytes()).toEqual(before);
    expect(existsSync(p.marker)).toBe(false);
  });

  it('control: the same suite with an output of its own starts the server (the marker appears)', async () => {
    const p = mcpProject();
    const r = await spawnCli(['test', p.suite, '-r', 'junit', '-o', join(p.dir, 'out.xml'), '--mcp-timeout', '5']);
    // The script is no MCP server: the suite errors, but only after it ran.
    expect(r.code).toBe(2);
    expect(existsSync(p.marker)).toBe(true);
  });
});
