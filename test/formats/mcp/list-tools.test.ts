import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { liveChildren } from '../../../src/formats/mcp/children.js';
import { listMcpTools, McpServerError } from '../../../src/formats/mcp/list-tools.js';
import { nodeEval, q, readPid, serverCommand, spawnHttpServer, waitGone } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-mcp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function failure(p: Promise<unknown>): Promise<McpServerError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(McpServerError);
    expect(err).toBeInstanceOf(InputError);
    return err as McpServerError;
  }
  throw new Error('expected a failure');
}

describe('listMcpTools over stdio', () => {
  it('follows the cursors of a paginated tools/list and ends the server', async () => {
    const list = await listMcpTools({ command: serverCommand(['--page-size', '3']) });
    expect(list.pages).toBe(3); // 7 tools: 3 + 3 + 1
    expect(list.tools.map((t) => t.name)).toEqual([
      'create_issue',
      'list-issues',
      'searchCode',
      'get.file',
      'post_message',
      'add_reaction',
      'query',
    ]);
    expect(list.server).toEqual({ name: 'Test Server!', version: '1.2.3' });
    expect(list.serverName).toBe('test_server');
    expect(list.source).toBe(`mcp:${serverCommand(['--page-size', '3'])}`);
    expect(list.tools[0]!.description).toBe('Create a new issue in a repository.');
    expect(list.tools[0]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'Some text' } },
      required: ['text'],
    });
    expect(list.warnings).toEqual([]);
    expect(liveChildren()).toBe(0);
  });

  it('tolerates (and reports) non-JSON-RPC lines once the server has spoken MCP', async () => {
    const list = await listMcpTools({ command: serverCommand(['--noise-after-init']) });
    expect(list.tools).toHaveLength(7);
    expect(list.warnings).toEqual([
      expect.stringMatching(/wrote 1 line\(s\) on stdout that were not JSON-RPC \(ignored\)$/),
    ]);
  });

  it('reports a command that does not exist', async () => {
    const err = await failure(listMcpTools({ command: 'definitely-not-a-command-xyz --flag' }));
    expect(err.message).toBe('command not found: definitely-not-a-command-xyz');
    expect(err.headline).toBe(
      'mcp:definitely-not-a-command-xyz --flag: command not found: definitely-not-a-command-xyz',
    );
  });

  it('reports a server that exits early, with the tail of its stderr', async () => {
    const err = await failure(
      listMcpTools({
        command: nodeEval("console.error('starting'); console.error('boom: GITHUB_TOKEN is not set'); process.exit(3)"),
      }),
    );
    expect(err.message).toBe(
      "the server exited with code 3 before answering initialize; the server's " +
        'stderr ended with: starting | boom: GITHUB_TOKEN is not set',
    );
    expect(err.stderr).toBe('starting\nboom: GITHUB_TOKEN is not set\n');
  });

  it('fails fast on a program that writes something other than JSON-RPC, and ends it', async () => {
    const pidFile = join(tmp, 'garbage.pid');
    const started = Date.now();
    const err = await failure(
      listMcpTools({
        command: nodeEval(
          "require('fs').writeFileSync(process.argv[1], String(process.pid)); " +
            "console.log('Hello, I am not MCP'); setInterval(() => {}, 1000)",
          [pidFile],
        ),
        timeoutMs: 20_000,
      }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(err.message).toBe(
      'not an MCP server: it wrote something other than JSON-RPC on stdout: "Hello, I am not MCP"',
    );
    expect(await waitGone(await readPid(pidFile))).toBe(true);
  });

  it('times out on a server that never answers, and ends its whole process group', async () => {
    const pidFile = join(tmp, 'silent.pid');
    // A shell that starts node in the background: node is a grandchild that ignores stdin.
    const inner = nodeEval(
      "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)",
      [pidFile],
    );
    const err = await failure(listMcpTools({ command: `sh -c ${q(`${inner} & wait`)}`, timeoutMs: 300 }));
    expect(err.message).toBe('no answer to initialize within 0.3 s');
    expect(await waitGone(await readPid(pidFile))).toBe(true);
    expect(liveChildren()).toBe(0);
  });

  it('reports an unterminated quote and an empty command line', async () => {
    expect((await failure(listMcpTools({ command: "node -e 'x" }))).message).toBe(
      "unterminated ' quote in the command line: node -e 'x",
    );
    expect((await failure(listMcpTools({ command: '   ' }))).message).toBe('the command line is empty');
  });
});

describe('listMcpTools over Streamable HTTP (127.0.0.1)', () => {
  it('follows cursors and ends the session; then reports that nothing listens', async () => {
    const server = await spawnHttpServer(['--name', 'HTTP Demo', '--page-size', '2']);
    try {
      const list = await listMcpTools({ url: server.url });
      expect(list.pages).toBe(4);
      expect(list.tools).toHaveLength(7);
      expect(list.serverName).toBe('http_demo');
      expect(list.source).toBe(`mcp:${server.url}`);
      expect(server.stderr()).toBe('session closed\n');
    } finally {
      await server.close();
    }
    const err = await failure(listMcpTools({ url: server.url, timeoutMs: 5000 }));
    expect(err.message).toMatch(/^cannot initialize an MCP session at http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED/);
  });

  it('rejects a URL that is not http(s)', async () => {
    expect((await failure(listMcpTools({ url: 'ftp://127.0.0.1/x' }))).message).toBe(
      'an MCP URL must be http: or https:, got ftp:',
    );
    expect((await failure(listMcpTools({ url: ' ' }))).message).toBe('the URL is empty');
  });
});

// Programs that speak JSON-RPC (or HTTP) but not MCP: every failure is one line.
describe('listMcpTools against programs that are not MCP servers', () => {
  /** A tiny JSON-RPC responder over stdio: `answer(method, params)` is the result of each request. */
  function fakeServer(name: string, answer: string): string {
    const file = join(tmp, name);
    writeFileSync(
      file,
      [
        "import { createInterface } from 'node:readline';",
        `const answer = ${answer};`,
        'createInterface({ input: process.stdin }).on("line", (line) => {',
        '  const m = JSON.parse(line);',
        '  if (m.id === undefined) return;',
        '  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: ' +
          'm.id, result: answer(m.method, m.params) }) + "\\n");',
        '});',
        '',
      ].join('\n'),
    );
    return [process.execPath, file].map(q).join(' ');
  }

  it('summarizes an initialize result that is not MCP on one line', async () => {
    const err = await failure(
      listMcpTools({ command: fakeServer('hello.mjs', '() => ({ hello: "world" })'), timeoutMs: 10_000 }),
    );
    expect(err.message).toBe(
      'not an MCP server: the initialize result lacks protocolVersion, capabilities, serverInfo',
    );
    expect(liveChildren()).toBe(0);
  });

  it('summarizes a tools/list result that is not MCP on one line', async () => {
    const answer =
      `(method, params) => method === 'initialize'
      ? { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'x', version: ` +
      `'1' } }
      : { tools: [{ name: 1 }, { description: 'x' }, {}], nextCursor: 5 }`;
    const err = await failure(listMcpTools({ command: fakeServer('bad-list.mjs', answer), timeoutMs: 10_000 }));
    expect(err.message).toBe(
      'tools/list returned an invalid result: it lacks ' +
        'tools[0].inputSchema, tools[1].name, tools[1].inputSchema and 2 more' +
        ' and has a bad nextCursor (expected string, received number), ' +
        'tools[0].name (expected string, received number)',
    );
    const wrongType = await failure(
      listMcpTools({
        command: fakeServer(
          'bad-version.mjs',
          `() => ({ protocolVersion: 7, capabilities: {}, serverInfo: { name: 'x', version: '1' } })`,
        ),
        timeoutMs: 10_000,
      }),
    );
    expect(wrongType.message).toBe(
      'not an MCP server: the initialize result has a bad protocolVersion (expected string, received number)',
    );
  });

  it('recognizes a program that echoes its input (cat)', async () => {
    const err = await failure(listMcpTools({ command: 'cat', timeoutMs: 10_000 }));
    expect(err.message).toBe('not an MCP server: it echoed our request back');
    expect(liveChildren()).toBe(0);
  });

  it("keeps the server's stderr that arrives just after its stdout", async () => {
    const started = Date.now();
    const err = await failure(
      listMcpTools({ command: "sh -c 'echo hello world; echo err-text >&2; sleep 5'", timeoutMs: 10_000 }),
    );
    expect(err.message).toBe(
      `not an MCP server: it wrote something other than JSON-RPC on stdout: ` +
        `"hello world"; the server's stderr ended with: err-text`,
    );
    expect(err.stderr).toBe('err-text\n');
    expect(Date.now() - started).toBeLessThan(4_000); // the wait for stderr is bounded; the server is ended
  });

  it('reports an HTTP server that is not MCP with its status and the first line of its body', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/missing') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('\n  No such page: /missing  \nsecond line\n');
      } else if (req.url === '/python') {
        // As `python3 -m http.server` answers a POST.
        res.writeHead(501, "Unsupported method ('POST')", { 'content-type': 'text/html' });
        res.end(
          '<!DOCTYPE HTML>\n<html lang="en">\n' +
            '<head><title>Error response</title></head>\n<body><p>Error code: 501</p></body>\n</html>\n',
        );
      } else if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html>${'x'.repeat(300)}\n</html>\n`);
      } else if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('not json at all\x1b[31m');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const at = async (path: string): Promise<string> =>
        (await failure(listMcpTools({ url: base + path, timeoutMs: 10_000 }))).message;
      expect(await at('/missing')).toBe(`HTTP 404 Not Found from ${base}/missing: "No such page: /missing"`);
      expect(await at('/python')).toBe(`HTTP 501 Unsupported method ('POST') from ${base}/python: "<!DOCTYPE HTML>"`);
      expect(await at('/page')).toBe(
        `not an MCP server: HTTP 200 from ${base}/page is text/html, not ` +
          `JSON or an event stream: "<html>${'x'.repeat(113)}…"`,
      );
      expect(await at('/json')).toBe(
        `not an MCP server: HTTP 200 from ${base}/json is JSON but not JSON-RPC: "{\\"hello\\":\\"world\\"}"`,
      );
      expect(await at('/other')).toBe(
        `not an MCP server: HTTP 200 from ${base}/other is not JSON: "not json at all\\u001b[31m"`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
