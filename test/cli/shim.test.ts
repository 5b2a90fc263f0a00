/**
 * bin/toolsearch.js is a POSIX sh script before it is JavaScript: executed as
 * a program, it starts Node without NODE_EXTRA_CA_CERTS (which costs ~40 ms
 * of certificate loading at every start) unless an argument could lead to a
 * network or a child process, and the JavaScript puts the variable back.
 */
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO, ROOT, type RunResult, baseEnv, collect, run } from './helpers.js';

let dir: string;
let fakeNodeDir: string;
let caFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolsearch-shim-'));
  // A stand-in `node` that reports what the sh part handed it.
  const fake = join(dir, 'node');
  writeFileSync(
    fake,
    '#!/bin/sh\nprintf "CA=%s\\0" "${NODE_EXTRA_CA_CERTS-(unset)}"\nprintf "DEFERRED=%s\\0" "${TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS-(unset)}"\nfor a in "$@"; do printf "%s\\0" "$a"; done\n',
  );
  chmodSync(fake, 0o755);
  fakeNodeDir = dir;
  caFile = join(dir, 'extra-ca.pem');
  writeFileSync(caFile, '');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Executes bin/toolsearch.js as a program (its `#!/bin/sh` line), as npm's bin link does. */
function exec(args: readonly string[], env: Record<string, string | undefined>, path?: string, bin = BIN, cwd = ROOT): Promise<RunResult> {
  const e = baseEnv(env);
  if (path !== undefined) e.PATH = `${path}:${e.PATH ?? ''}`;
  return collect(spawn(bin, [...args], { cwd, env: e, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** What the stand-in node received: [CA, DEFERRED, args]. */
async function handed(args: readonly string[], env: { ca: string | undefined } = { ca: '/certs/extra.pem' }): Promise<{ ca: string; deferred: string; args: string[] }> {
  const r = await exec(args, { NODE_EXTRA_CA_CERTS: env.ca, TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS: undefined }, fakeNodeDir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const fields = r.stdout.split('\0').slice(0, -1);
  return {
    ca: fields[0]!.replace(/^CA=/, ''),
    deferred: fields[1]!.replace(/^DEFERRED=/, ''),
    args: fields.slice(2),
  };
}

describe('the sh part of bin/toolsearch.js', () => {
  const deferred = [
    ['--help'],
    ['search', '-c', DEMO, 'create', 'issue'],
    ['--no-color', 'search', 'test', 'import'],
    ['simulate', 'fixtures/transcripts/keyword-search-then-call.json', '-c', DEMO],
    ['eval', 'fixtures/eval/demo-queries.jsonl', '-c', DEMO],
    ['lint', '-c', DEMO],
    ['explore', '-c', DEMO],
    ['select', 'select:a,b', '-c', DEMO],
    // Tool names of MCP servers are not MCP catalogs.
    ['select', 'select:mcp__slack__send_message', '-c', DEMO],
    ['search', '-c', DEMO, '--expect-first', 'mcp__github__create_issue', 'create', 'issue'],
    ['search', '-c', 'MCP:x', 'q'],
    [],
  ];
  it.each(deferred.map((a) => [a.join(' ') || '(no arguments)', a]))('starts Node without NODE_EXTRA_CA_CERTS for: %s', async (_label, args) => {
    expect(await handed(args as string[])).toEqual({ ca: '(unset)', deferred: '/certs/extra.pem', args: [BIN, ...(args as string[])] });
  });

  const kept = [
    ['search', '-c', 'mcp:node server.js', 'create'],
    ['search', '-c=mcp:node server.js', 'create'],
    ['search', '-cmcp:x', 'q'],
    ['--no-color', 'search', '--mcp-timeout', '5', '-c', DEMO],
    ['search', '--catalog=mcp:x', 'q'],
    ['import', '--mcp', 'node server.js'],
    ['import', '--mcp-url', 'https://example.test/mcp'],
    ['--no-color', 'import', '-o', 'out.yaml'],
    ['test', 'fixtures/suites/'],
    ['--no-color', 'test', 'suite.yaml'],
    ['eval', 'q.jsonl', '-c', 'https://example.test/catalog'],
    ['search', '-c', DEMO, 'fetch', 'http://x/'],
  ];
  it.each(kept.map((a) => [a.join(' '), a]))('keeps NODE_EXTRA_CA_CERTS where a network or a child process may follow: %s', async (_label, args) => {
    expect(await handed(args as string[])).toEqual({ ca: '/certs/extra.pem', deferred: '(unset)', args: [BIN, ...(args as string[])] });
  });

  it('changes nothing when NODE_EXTRA_CA_CERTS is not set, and keeps an empty value as empty', async () => {
    expect(await handed(['search', 'x'], { ca: undefined })).toEqual({ ca: '(unset)', deferred: '(unset)', args: [BIN, 'search', 'x'] });
    expect(await handed(['search', 'x'], { ca: '' })).toEqual({ ca: '(unset)', deferred: '', args: [BIN, 'search', 'x'] });
  });

  it('hands every argument over exactly: spaces, quotes, globs, $, backslashes, newlines, empty strings', async () => {
    const args = ['search', 'a b', "it's", '"q"', '*', '$HOME', '\\n', 'line\nbreak', '', '-', '--', '--x=y z'];
    expect((await handed(args)).args).toEqual([BIN, ...args]);
  });
});

describe('--version in the sh part', () => {
  const version = `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`;
  const viaFake = (bin: string, args: string[]) => exec(args, { NODE_EXTRA_CA_CERTS: undefined }, fakeNodeDir, bin, dir);

  it('answers a bare --version or -V from package.json without starting Node (the stand-in node is never run)', async () => {
    expect(await viaFake(BIN, ['--version'])).toEqual({ code: 0, stdout: version, stderr: '' });
    expect(await viaFake(BIN, ['-V'])).toEqual({ code: 0, stdout: version, stderr: '' });
    // The same answer as Node's path.
    expect((await run(['--version'])).stdout).toBe(version);
  });

  it('finds package.json through a symlink, absolute or relative, as npm links bins', async () => {
    const links = join(dir, 'links');
    mkdirSync(links, { recursive: true });
    symlinkSync(BIN, join(links, 'abs'));
    symlinkSync(relative(links, BIN), join(links, 'rel'));
    expect(await viaFake(join(links, 'abs'), ['--version'])).toEqual({ code: 0, stdout: version, stderr: '' });
    expect(await viaFake(join(links, 'rel'), ['--version'])).toEqual({ code: 0, stdout: version, stderr: '' });
  });

  it('leaves everything else to Node: other arguments with it, or no version found', async () => {
    expect((await viaFake(BIN, ['--version', 'x'])).stdout).toMatch(/^CA=/);
    expect((await viaFake(BIN, ['search', '--version'])).stdout).toMatch(/^CA=/);
    const pkg = join(dir, 'pkg');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{ "name": "x" }\n');
    copyFileSync(BIN, join(pkg, 'bin', 'toolsearch.js'));
    chmodSync(join(pkg, 'bin', 'toolsearch.js'), 0o755);
    expect((await viaFake(join(pkg, 'bin', 'toolsearch.js'), ['--version'])).stdout).toMatch(/^CA=/);
  });
});

describe('bin/toolsearch.js run for real', () => {
  it('gives the same output and exit code as `node bin/toolsearch.js` when it starts Node without the certificates', async () => {
    const env = { NODE_EXTRA_CA_CERTS: caFile };
    for (const args of [['--version'], ['search', '-c', DEMO, 'create', 'issue'], ['search', '-c', DEMO, '--json', '--explain', 'send', 'message'], ['search', '-c', 'missing.yaml', 'x']]) {
      const viaSh = await exec(args, env);
      const direct = await run(args, { env });
      expect(viaSh).toEqual(direct);
    }
    const bad = await exec(['search', '-c', 'missing.yaml', 'x'], env);
    expect(bad.code).toBe(2);
  });

  it('puts NODE_EXTRA_CA_CERTS back into the environment children see, and removes its own variable', async () => {
    const server = (v: string) => `mcp:node test/mcp/fixtures/test-server.mjs --tools 1 --env-name ${v}`;
    const env = { NODE_EXTRA_CA_CERTS: undefined, TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS: caFile };
    const a = await run(['import', '--mcp', server('NODE_EXTRA_CA_CERTS').slice(4)], { env });
    expect(a.code).toBe(0);
    expect(a.stdout).toContain(`(NODE_EXTRA_CA_CERTS=${caFile} 1.2.3, 1 tool)`);
    const b = await run(['import', '--mcp', server('TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS').slice(4)], { env });
    expect(b.code).toBe(0);
    expect(b.stdout).toContain('(TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS unset 1.2.3, 1 tool)');
  });

  it('refuses to connect to a URL in a process that started without the certificates (exit 70: it would be a bug in the sh part)', async () => {
    const r = await run(['import', '--mcp-url', 'https://127.0.0.1:9/mcp'], { env: { TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS: caFile } });
    expect(r.code).toBe(70);
    expect(r.stderr).toContain('internal error: this process started without NODE_EXTRA_CA_CERTS (bin/toolsearch.js), but connects to a URL');
  });
});
