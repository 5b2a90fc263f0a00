import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { mcpCatalog, mcpCatalogDetailed } from '../../src/mcp/catalog.js';
import { loadCatalogSpec, loadCatalogSpecs } from '../../src/mcp/catalog-spec.js';
import { q, serverCommand } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-mcp-catalog-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

describe('mcpCatalog', () => {
  it('names tools mcp__<server>__<tool>, keeps descriptions and schemas, and merges servers in order', async () => {
    const a = serverCommand(['--name', 'GitHub', '--tools', '3']);
    const b = serverCommand(['--name', 'Slack Workspace', '--tools', '2', '--page-size', '1']);
    const tools = await mcpCatalog([{ command: a }, { command: b }]);
    expect(tools.map((t) => t.name)).toEqual([
      'mcp__github__create_issue',
      'mcp__github__list-issues',
      'mcp__github__searchCode',
      'mcp__slack_workspace__create_issue',
      'mcp__slack_workspace__list-issues',
    ]);
    expect(tools[0]).toEqual({
      name: 'mcp__github__create_issue',
      description: 'Create a new issue in a repository.',
      parameters: expect.objectContaining({ type: 'object', properties: { text: { type: 'string', description: 'Some text' } } }),
      static: false,
      source: { file: `mcp:${a}`, line: 0, column: 0 },
    });
  });

  it('uses a given name instead of the reported one, and refuses two servers with the same name', async () => {
    const cmd = serverCommand(['--tools', '1']);
    const r = await mcpCatalogDetailed([{ command: cmd }, { command: cmd, name: 'Other One' }]);
    expect(r.tools.map((t) => t.name)).toEqual(['mcp__test_server__create_issue', 'mcp__other_one__create_issue']);
    expect(r.servers.map((s) => s.usedName)).toEqual(['test_server', 'other_one']);
    await expect(mcpCatalog([{ command: cmd }, { command: cmd }])).rejects.toThrow(
      `duplicate tool name mcp__test_server__create_issue: it is also a tool of mcp:${cmd}; give the servers different names (--name)`,
    );
  });

  it('normalizes tool names with characters the provider APIs refuse', async () => {
    const tools = await mcpCatalog([{ command: serverCommand(['--name', 'x', '--tools', '4']) }]);
    expect(tools[3]!.name).toBe('mcp__x__get_file'); // get.file
  });

  it('fails with the first failing server', async () => {
    await expect(mcpCatalog([{ command: serverCommand(['--tools', '1']) }, { command: 'no-such-server-cmd' }])).rejects.toThrow(
      'command not found: no-such-server-cmd',
    );
  });
});

describe('loadCatalogSpecs', () => {
  it('merges files and live servers in the order given', async () => {
    const file = join(tmp, 'local.yaml');
    writeFileSync(file, 'tools:\n  - name: think\n    description: Think.\n    static: true\n  - name: local_tool\n    description: A local tool.\n');
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

  it('uses --prefix as the server name, and reports duplicates across specs', async () => {
    const cmd = serverCommand(['--tools', '1']);
    const catalog = await loadCatalogSpec(`mcp:${cmd}`, { prefix: 'gh' });
    expect(catalog.tools.map((t) => t.name)).toEqual(['mcp__gh__create_issue']);
    const err = await loadCatalogSpecs([`mcp:${cmd}`, `mcp:${cmd}`]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^duplicate tool name "mcp__test_server__create_issue"/);
  });

  it('reads the real @modelcontextprotocol/server-everything over stdio', async () => {
    const catalog = await loadCatalogSpec(`mcp:${q(process.execPath)} ${q(EVERYTHING)} stdio`);
    const names = catalog.tools.map((t) => t.name);
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names).toContain('mcp__mcp-servers_everything__echo');
    expect(names).toContain('mcp__mcp-servers_everything__get-sum');
    const echo = catalog.tools.find((t) => t.name === 'mcp__mcp-servers_everything__echo')!;
    expect(echo.description).toBe('Echoes back the input string');
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
  });
});
