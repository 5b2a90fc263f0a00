/**
 * Issue 27, finding 6 and its rule: every text that reaches the terminal, warnings included, goes through one
 * escaping path (`messageLine` in src/io/escape.ts: one line, a line break shown as `\n`). Before, MCP client config
 * warnings inserted keys raw and `ctx.warn` kept line breaks, so a config (or what its server writes on stderr)
 * could print lines beginning `error: …` of its choosing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CliContext } from '../../src/cli/context.js';
import { messageLine } from '../../src/io/escape.js';
import { DEMO, expectTerminalSafe, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-forged-warnings-');
afterAll(() => tmp.cleanup());

const FORGED = '\nerror: forged by the input \u001b[31mred\u001b[0m \u202eevil';

/** No line of `stderr` is one the input wrote, and nothing raw reaches the terminal. */
function expectNoForgedLine(stderr: string): void {
  expectTerminalSafe(stderr, 'stderr');
  for (const line of stderr.split('\n')) expect(line.startsWith('error: forged')).toBe(false);
}

describe.concurrent('finding 6: warnings are one escaped line', () => {
  it('unknown keys of a client config, at the top and in a server', async () => {
    const config = tmp.file(
      'keys.mcp.json',
      JSON.stringify({
        [`top${FORGED}`]: 1,
        mcpServers: { s: { command: '/bin/sh', args: ['-c', 'exit 3'], [`key${FORGED}`]: true } },
      }),
    );
    const r = await spawnCli(['search', '-c', config, '-c', DEMO, 'x', '--skip-failed', '--mcp-timeout', '5000']);
    expect(r.code, r.stderr).toBe(0);
    expectNoForgedLine(r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toContain(
      `warning: ${config}:1:2: "top\\nerror: forged by the input \\u001b[31mred\\u001b[0m \\u202eevil" is not read ` +
        'from an MCP client config (ignored)',
    );
    expect(warnings.some((w) => w.includes('server "s": "key\\nerror: forged'))).toBe(true);
  });

  it('what a failing server writes on stderr, in the --skip-failed warning', async () => {
    const script = `printf 'boom${FORGED.replace(/\n/g, '\\n').replace(/\u001b/g, '\\033')}\\n' >&2; exit 1`;
    const config = tmp.file(
      'stderr.mcp.json',
      JSON.stringify({ mcpServers: { s: { command: '/bin/sh', args: ['-c', script] } } }),
    );
    const r = await spawnCli(['search', '-c', config, '-c', DEMO, 'x', '--skip-failed', '--mcp-timeout', '5000']);
    expect(r.code, r.stderr).toBe(0);
    expectNoForgedLine(r.stderr);
    const w = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('boom | error: forged by the input \\x1b[31mred');
    expect(w[0]).toMatch(/\(skipped: --skip-failed\)$/);
  });

  it('ctx.warn and messageLine: a line break, escapes and bidi controls shown escaped', () => {
    let err = '';
    const ctx = new CliContext({
      stdout: { write: () => true },
      stderr: { write: (s: string) => ((err += s), true) },
      stdin: process.stdin,
      env: { NO_COLOR: '1' },
    });
    ctx.warn(`a${FORGED}\r\nb\u2028c`);
    expect(err).toBe('warning: a\\nerror: forged by the input \\x1b[31mred\\x1b[0m \\u202eevil\\r\\nb\\u2028c\n');
    expect(messageLine('x\ny')).toBe('x\\ny');
    expect(messageLine('z'.repeat(5000)).length).toBeLessThanOrEqual(1000);
  });
});
