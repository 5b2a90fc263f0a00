// `import` and `-c mcp:` start MCP servers: a progress line on stderr when it
// is a terminal (erased before anything else is written), nothing otherwise.
// In process (main() with an injected stderr that says it is a terminal).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { serverCommand } from '../formats/mcp/helpers.js';

async function inproc(argv: string[], stderrTTY: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = { write: (s: string) => ((stdout += s), true), isTTY: false };
  const err = { write: (s: string) => ((stderr += s), true), isTTY: stderrTTY, columns: 80 };
  const code = await main(argv, { stdout: out, stderr: err, stdin: Readable.from([]), env: { NO_COLOR: '1' } });
  return { code, stdout, stderr };
}

describe('progress while MCP servers start (terminal only)', () => {
  it('import: "starting MCP servers…", erased; the catalog on stdout either way', { timeout: 60_000 }, async () => {
    const argv = ['import', '--mcp', serverCommand(['--tools', '2']), '--json'];
    const tty = await inproc(argv, true);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toBe('\r\u001b[Kstarting MCP servers…\r\u001b[K');
    const piped = await inproc(argv, false);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toEqual(JSON.parse(tty.stdout));
  });

  it('-c mcp:<command>: "starting 1 MCP server…", erased', { timeout: 60_000 }, async () => {
    const argv = ['search', '-c', `mcp:${serverCommand(['--tools', '2'])}`, 'issue', '--json'];
    const tty = await inproc(argv, true);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toBe('\r\u001b[Kstarting 1 MCP server…\r\u001b[K');
    expect((await inproc(argv, false)).stderr).toBe('');
  });
});
