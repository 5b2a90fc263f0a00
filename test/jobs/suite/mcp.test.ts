/** Suites whose catalog is a live MCP server (`catalog: "mcp:<command line>"`), read as `-c mcp:…` reads it. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { liveChildren } from '../../../src/formats/mcp/children.js';
import { loadSuite, runSuites, runSuitesAsync, type TestRun } from '../../../src/jobs/suite/run.js';
import { run } from '../../cli/helpers.js';
import { q, serverCommand } from '../../formats/mcp/helpers.js';

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-suite-mcp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A suite file in a directory of its own (so a path resolved against it would not exist). */
function suiteFile(name: string, text: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'suite.yaml');
  writeFileSync(file, text);
  return file;
}

/** The first errored suite of the report (an invalid suite does not stop a run), or what the run threw. */
function suiteError(run: TestRun): InputError | null {
  const e = run.report.suites.find((x) => x.error !== null)?.error;
  return e ? new InputError(e.message, e.location, e.excerpt ?? undefined) : null;
}

async function rejection(p: Promise<TestRun>): Promise<InputError> {
  try {
    const e = suiteError(await p);
    if (e) return e;
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected a failure');
}

describe('suites over live MCP servers', () => {
  it('runs cases against @modelcontextprotocol/server-everything over stdio', async () => {
    const spec = `mcp:${q(process.execPath)} ${q(EVERYTHING)} stdio`;
    const file = suiteFile(
      'everything',
      `name: everything
catalog: ${JSON.stringify(spec)}
cases:
  - name: echo is found
    query: echo
    first: mcp__mcp_servers_everything__echo
  - name: get-sum adds numbers
    query: sum
    includes: [mcp__mcp_servers_everything__get-sum]
  - name: select loads the echo tool
    select: [mcp__mcp_servers_everything__echo]
    exact: [mcp__mcp_servers_everything__echo]
`,
    );
    // kept as written, not resolved against the suite's directory
    expect(loadSuite(file).suite.catalog!.files).toEqual([spec]);
    const r = (await runSuitesAsync([file], { mcpTimeoutMs: 20_000 })).report;
    expect(r.suites[0]!.catalog).toBe(spec);
    expect(r.suites[0]!.cases.map((c) => [c.name, c.status])).toEqual([
      ['echo is found', 'passed'],
      ['get-sum adds numbers', 'passed'],
      ['select loads the echo tool', 'passed'],
    ]);
    expect(liveChildren()).toBe(0);
  });

  it('merges files and servers, applies prefix, and checks the names of expectations against the server', async () => {
    const spec = `mcp:${serverCommand(['--tools', '2'])}`;
    const dir = join(tmp, 'mixed');
    mkdirSync(dir, { recursive: true });
    // An MCP tools/list result saved to a file: --prefix names its tools too.
    writeFileSync(
      join(dir, 'local.yaml'),
      'tools:\n  - name: local_tool\n    description: A local tool.\n    inputSchema: {type: object}\n',
    );
    const file = join(dir, 'suite.yaml');
    const head = `catalog: [local.yaml, ${JSON.stringify(spec)}]
prefix: gh
cases:
  - name: the server's tool
    query: create issue
    first: mcp__gh__create_issue
  - name: the file's tool
    query: local
    first: mcp__gh__local_tool
`;
    writeFileSync(join(dir, 'ok.yaml'), head);
    writeFileSync(
      file,
      `${head}  - name: a name the server does not have\n    query: issue\n    includes: [mcp__gh__create_isue]\n`,
    );
    const ok = (await runSuitesAsync([file.replace('suite.yaml', 'ok.yaml')])).report;
    expect(ok.suites[0]!.cases.map((c) => [c.name, c.status])).toEqual([
      ["the server's tool", 'passed'],
      ["the file's tool", 'passed'],
    ]);
    const err = await rejection(runSuitesAsync([file]));
    expect(err.headline).toBe(
      `${file}:12:16: case "a name the server does not have": "mcp__gh__create_isue" is ` +
        `not a tool of the catalog (did you mean mcp__gh__create_issue?)`,
    );
    expect(liveChildren()).toBe(0);
  });

  it("reports a server that fails at the suite's catalog, with the timeout", async () => {
    const file = suiteFile(
      'failing',
      `catalog: "mcp:no-such-mcp-server --stdio"\ncases:\n  - {name: x, query: a, none: true}\n`,
    );
    const err = await rejection(runSuitesAsync([file]));
    expect(err.headline).toBe(
      `${file}:1:10: cannot load the catalog: mcp:no-such-mcp-server --stdio: command not found: no-such-mcp-server`,
    );
    const silent = suiteFile(
      'silent',
      `catalog: ${JSON.stringify(`mcp:${q(process.execPath)} -e 'setInterval(() => {}, 1000)'`)}\ncases:\n` +
        `  - {name: x, query: a, none: true}\n`,
    );
    const slow = await rejection(runSuitesAsync([silent], { mcpTimeoutMs: 300 }));
    expect(slow.headline).toMatch(/:1:10: cannot load the catalog: mcp:.*: no answer to initialize within 0\.3 s$/);
    expect(liveChildren()).toBe(0);
  });

  it('runSuites (synchronous) says where a live catalog is read', () => {
    const file = suiteFile('sync', `catalog: "mcp:cat"\ncases:\n  - {name: x, query: a, none: true}\n`);
    expect(suiteError(runSuites([file]))?.message).toBe(
      'cannot load the catalog: a live MCP server (mcp:) is read by runSuitesAsync, not runSuites',
    );
  });

  it('the CLI: toolsearch test runs such a suite; --mcp-timeout is checked', async () => {
    const spec = `mcp:${q(process.execPath)} ${q(EVERYTHING)} stdio`;
    const file = suiteFile(
      'cli',
      `catalog: ${JSON.stringify(spec)}\ncases:\n  - name: echo is found\n    ` +
        `query: echo\n    first: mcp__mcp_servers_everything__echo\n`,
    );
    const ok = await run(['test', file]);
    expect([ok.code, ok.stdout.trim().split('\n').at(-1), ok.stderr]).toEqual([0, '1 passed, 0 failed', '']);
    const bad = await run(['test', file, '--mcp-timeout', '0']);
    expect([bad.code, bad.stderr]).toEqual([2, 'error: --mcp-timeout must be a positive number of seconds, got 0\n']);
  }, 30_000);
});
