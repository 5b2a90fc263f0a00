/**
 * Issue 27, finding 5 and its rule: a forced `--catalog-format` reads the file as that format only, and starting
 * processes from a config needs the config format, detected (`auto`) or forced (`mcp-config`); `data` reads an
 * untrusted catalog as plain data whatever its shape. Before, `search --catalog-format openai -c config.json` with
 * an MCP client config ran the config's command. Each config here names a `/bin/sh` that leaves a marker file.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, ROOT, expectCleanError, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-forced-format-');
afterAll(() => tmp.cleanup());
let n = 0;

/** A directory with a client config whose one server leaves `marker` when it starts. */
function setup(): { dir: string; config: string; marker: string } {
  const dir = join(tmp.dir, `d${n++}`);
  mkdirSync(dir);
  const marker = join(dir, 'marker');
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { x: { command: '/bin/sh', args: ['-c', `echo > ${marker}`] } } }),
  );
  return { dir, config, marker };
}

const DATA_FORMATS = ['toolsearch', 'openai', 'anthropic', 'mcp', 'eino', 'request', 'data'];

describe.concurrent('finding 5: a forced data format never starts a config', () => {
  it.each(DATA_FORMATS)('search --catalog-format %s -c <config>: exit 2 at the file, nothing started', async (f) => {
    const { config, marker } = setup();
    const r = await spawnCli(['search', '--catalog-format', f, '-c', config, 'x']);
    expect(expectCleanError(r, config)).toMatch(new RegExp(`^error: ${config}:1:1: `));
    expect(existsSync(marker)).toBe(false);
  });

  it.each(['auto', 'mcp-config'])(
    '--catalog-format %s starts it (the config format, detected or forced)',
    async (f) => {
      const { config, marker } = setup();
      const r = await spawnCli(['search', '--catalog-format', f, '-c', config, 'x', '--mcp-timeout', '5000']);
      expect(expectCleanError(r, config)).toContain('server "x"');
      expect(existsSync(marker)).toBe(true);
    },
  );

  it('simulate (one recording and bulk) and a suite with catalog_format: openai start nothing', async () => {
    const { dir, config, marker } = setup();
    const t = join(ROOT, 'fixtures/transcripts/keyword-search-then-call.json');
    const one = await spawnCli(['simulate', t, '-c', config, '--catalog-format', 'openai']);
    expect(expectCleanError(one, config)).toContain('no "tools"');
    const bulk = await spawnCli(['simulate', t, t, '-c', config, '--catalog-format', 'data', '--jobs', '1']);
    expect(expectCleanError(bulk, config)).toContain('no known catalog shape fits');
    const suite = join(dir, 's.yaml');
    writeFileSync(
      suite,
      `catalog: config.json\ncatalog_format: openai\ncases:\n  - name: a\n    query: x\n    none: true\n`,
    );
    const test = await spawnCli(['test', suite, '-r', 'json']);
    expect(test.code).toBe(2);
    expect(JSON.parse(test.stdout).suites[0].error.message).toContain('no "tools"');
    expect(existsSync(marker)).toBe(false);
  });

  it('data refuses an mcp: server; mcp-config refuses a file that is no config', async () => {
    const r = await spawnCli(['search', '--catalog-format', 'data', '-c', 'mcp:/bin/sh -c true', 'x']);
    expect(expectCleanError(r)).toBe(
      'error: --catalog-format data reads catalogs as plain data, and "mcp:/bin/sh -c true" starts a server: ' +
        'drop one of them',
    );
    const c = await spawnCli(['search', '--catalog-format', 'mcp-config', '-c', DEMO, 'x']);
    expect(expectCleanError(c, DEMO)).toMatch(
      new RegExp(
        ':17:1: not an MCP client config \\(--catalog-format mcp-config\\): ' +
          'expected an object with "mcpServers" or "servers"$',
      ),
    );
  });

  it('data reads every data shape as auto does', async () => {
    for (const f of ['demo.yaml', 'demo.openai.json', 'demo.anthropic.json', 'demo.mcp.json', 'demo.eino.json']) {
      const file = join(ROOT, 'fixtures/catalogs', f);
      const auto = await spawnCli(['search', '-c', file, 'slack send', '--json', '--no-cache']);
      const data = await spawnCli(['search', '-c', file, 'slack send', '--json', '--catalog-format', 'data']);
      expect(data.code, data.stderr).toBe(0);
      expect(data.stdout).toBe(auto.stdout);
    }
  });
});
