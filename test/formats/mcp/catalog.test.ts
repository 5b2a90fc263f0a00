import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { mcpCatalog, mcpCatalogDetailed, mergeServerTools } from '../../../src/formats/mcp/catalog.js';
import type { McpToolList } from '../../../src/formats/mcp/list-tools.js';
import { loadCatalogSpec, loadCatalogSpecs } from '../../../src/formats/mcp/catalog-spec.js';
import { q, serverCommand } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-mcp-catalog-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

const fakeList = (source: string, serverName: string, names: string[]): McpToolList & { usedName: string } => ({
  source,
  server: { name: serverName, version: '1' },
  serverName,
  usedName: serverName,
  tools: names.map((name) => ({ name, description: '', inputSchema: { type: 'object' } })),
  pages: 1,
  warnings: [],
});

describe('mcpCatalog', () => {
  it('names tools mcp__<server>__<tool>, keeps descriptions and schemas, and merges servers in order', async () => {
    const a = serverCommand(['--name', 'GitHub', '--tools', '4']);
    const b = serverCommand(['--name', 'Slack Workspace', '--tools', '2', '--page-size', '1']);
    const r = await mcpCatalogDetailed([{ command: a }, { command: b, name: 'Slack' }]);
    expect(r.tools.map((t) => t.name)).toEqual([
      'mcp__github__create_issue',
      'mcp__github__list-issues', // hyphens kept
      'mcp__github__searchCode', // case kept
      'mcp__github__get_file', // get.file: characters the provider APIs refuse become _
      'mcp__slack__create_issue', // the given name wins over the reported one
      'mcp__slack__list-issues',
    ]);
    expect(r.servers.map((s) => [s.serverName, s.usedName, s.pages])).toEqual([
      ['github', 'github', 2],
      ['slack_workspace', 'slack', 2],
    ]);
    expect(r.tools[0]).toEqual({
      name: 'mcp__github__create_issue',
      description: 'Create a new issue in a repository.',
      parameters: expect.objectContaining({
        type: 'object',
        properties: { text: { type: 'string', description: 'Some text' } },
      }),
      static: false,
      source: { file: `mcp:${a}`, line: 0, column: 0 },
    });
  });

  it('refuses two tools with the same name', () => {
    const one = fakeList('mcp:a', 'x', ['t']);
    const two = fakeList('mcp:b', 'x', ['t']);
    expect(mergeServerTools([one, { ...two, usedName: 'y' }]).map((t) => t.name)).toEqual(['mcp__x__t', 'mcp__y__t']);
    expect(() => mergeServerTools([one, two])).toThrow(
      'duplicate tool name mcp__x__t: it is also a tool of mcp:a; give the servers different names (--name)',
    );
    expect(() => mergeServerTools([fakeList('mcp:c', 'x', ['a.b', 'a_b'])])).toThrow(
      'duplicate tool name mcp__x__a_b: two of its tools normalize to the same name ("a_b")',
    );
  });

  it('fails with the first failing server, in the order given', async () => {
    await expect(mcpCatalog([{ command: 'no-such-server-one' }, { command: 'no-such-server-two' }])).rejects.toThrow(
      'command not found: no-such-server-one',
    );
    await expect(mcpCatalog([])).rejects.toThrow('no MCP server given');
  });
});

describe('loadCatalogSpecs', () => {
  it('merges files and live servers in the order given', async () => {
    const file = join(tmp, 'local.yaml');
    writeFileSync(
      file,
      'tools:\n  - name: think\n    description: Think.\n    static: true\n' +
        '  - name: local_tool\n    description: A local tool.\n',
    );
    const cmd = serverCommand(['--name', 'demo', '--tools', '2']);
    const catalog = await loadCatalogSpecs([file, `mcp:${cmd}`]);
    expect(catalog.tools.map((t) => [t.name, t.static])).toEqual([
      ['think', true],
      ['local_tool', false],
      ['mcp__demo__create_issue', false],
      ['mcp__demo__list-issues', false],
    ]);
    expect(catalog.sources).toEqual([
      { file, format: 'toolsearch' },
      { file: `mcp:${cmd}`, format: 'mcp' },
    ]);
  });

  it('uses --prefix as the server name, and reports a name defined by a file and a server', async () => {
    const file = join(tmp, 'clash.yaml');
    // An MCP tools/list result saved to a file: --prefix names its tools too.
    writeFileSync(
      file,
      'tools:\n  - name: create_issue\n    description: From a file.\n    inputSchema: {type: object}\n',
    );
    const cmd = serverCommand(['--tools', '1']);
    const err = await loadCatalogSpecs([file, `mcp:${cmd}`], { prefix: 'gh' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(
      `duplicate tool name "mcp__gh__create_issue": first defined at ${file}:2:5, again at mcp:${cmd}`,
    );
  });

  it('reads the real @modelcontextprotocol/server-everything over stdio', async () => {
    const catalog = await loadCatalogSpec(`mcp:${q(process.execPath)} ${q(EVERYTHING)} stdio`);
    const names = catalog.tools.map((t) => t.name);
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names).toContain('mcp__mcp_servers_everything__echo');
    expect(names).toContain('mcp__mcp_servers_everything__get-sum');
    const echo = catalog.tools.find((t) => t.name === 'mcp__mcp_servers_everything__echo')!;
    expect(echo.description).toBe('Echoes back the input string');
    expect(echo.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
  });
});
