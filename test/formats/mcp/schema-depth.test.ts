/**
 * Issue 14, finding 9: the nesting bound (1,000 levels, TOOLSEARCH_MAX_DEPTH)
 * applies to the `inputSchema` of MCP tools, counted as the `parameters` of
 * a catalog file (three levels above them), so what `import` writes can be
 * read again; a deeper schema is exit 2 naming the server and the tool, not
 * a stack overflow (exit 70). Through the built CLI (`npm run build` first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../../hardening/helpers.js';
import { q } from './helpers.js';

const SERVER = fileURLToPath(new URL('./fixtures/deep-schema-server.mjs', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-depth-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const server = (levels: number): string => [process.execPath, SERVER, String(levels)].map(q).join(' ');

describe('inputSchema nesting of MCP tools', () => {
  it.each([
    ['import (YAML)', 998, (cmd: string) => ['import', '--mcp', cmd]],
    ['import --json', 1001, (cmd: string) => ['import', '--mcp', cmd, '--json']],
    ['search -c mcp:', 5000, (cmd: string) => ['search', '-c', `mcp:${cmd}`, 'deep', '--json']],
  ])('%s with a schema of %i levels: exit 2 naming the server and the tool', async (_what, levels, argv) => {
    const cmd = server(levels);
    const r = await spawnCli(argv(cmd));
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: mcp:${cmd}: server "Deep", tool "deep": its inputSchema is nested deeper than 1000 levels ` +
        '(counted as parameters in a catalog file; set TOOLSEARCH_MAX_DEPTH to raise the limit)\n',
    );
    expect(r.code).toBe(2);
  });

  it('TOOLSEARCH_MAX_DEPTH sets the bound', async () => {
    const cmd = server(8);
    const r = await spawnCli(['import', '--mcp', cmd], { env: { TOOLSEARCH_MAX_DEPTH: '10' } });
    expect(r.stderr).toBe(
      `error: mcp:${cmd}: server "Deep", tool "deep": its inputSchema is nested deeper than 10 levels ` +
        '(counted as parameters in a catalog file; set TOOLSEARCH_MAX_DEPTH to raise the limit)\n',
    );
    expect(r.code).toBe(2);
    expect((await spawnCli(['import', '--mcp', server(7)], { env: { TOOLSEARCH_MAX_DEPTH: '10' } })).code).toBe(0);
  });

  it(
    'at the bound (997 levels) import writes YAML without overflowing the stack, and JSON that reads ' + 'back',
    async () => {
      const yaml = join(tmp, 'deep.yaml');
      const y = await spawnCli(['import', '--mcp', server(997), '-o', yaml]);
      expect(y.code, y.stderr).toBe(0);
      // Deep parameters are written as JSON, which YAML reads as a flow mapping.
      const line = readFileSync(yaml, 'utf8')
        .split('\n')
        .find((l) => l.includes('"properties"'))!;
      expect(line.startsWith('    parameters: {"type":"object","properties":{"a":{"a":')).toBe(true);
      const json = join(tmp, 'deep.json');
      expect((await spawnCli(['import', '--mcp', server(997), '--json', '-o', json])).code).toBe(0);
      const s = await spawnCli(['search', '-c', json, 'deep', '--no-cache']);
      expect(s.stderr).toBe('');
      expect(s.code).toBe(0);
      expect(s.stdout).toContain('mcp__deep__deep');
    },
  );
});
