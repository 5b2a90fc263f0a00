/**
 * Issue 14, finding 15: what an MCP server started in its process group ends
 * with it, even a grandchild that traps SIGTERM (SIGKILL to the group after
 * the grace period). Through the built CLI (`npm run build` first) and the
 * library. A grandchild started detached (its own session) is out of reach,
 * as the README says; not tested here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveChildren } from '../../../src/formats/mcp/children.js';
import { listMcpTools } from '../../../src/formats/mcp/list-tools.js';
import { spawnCli } from '../../hardening/helpers.js';
import { alive, nodeEval, q, readPid, serverCommand, waitGone } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-grandchild-'));
const started: number[] = [];
afterAll(() => {
  // Whatever the outcome, leave nothing running.
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * `sh -c '<trapping grandchild> & exec <test server>'`: the grandchild has no pipe of ours, so only signals can end it.
 */
function serverWithTrappingGrandchild(pidFile: string): string {
  const trap = nodeEval(
    "process.on('SIGTERM', () => {}); " +
      "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)",
    [pidFile],
  );
  // The server starts once the grandchild has written its pid (its SIGTERM trap is set by then): under
  // load a grandchild still starting when the group is ended dies at once and never writes it.
  const wait = `while [ ! -s ${q(pidFile)} ]; do sleep 0.02; done`;
  return `sh -c ${q(`${trap} </dev/null >/dev/null 2>&1 & ${wait}; exec ${serverCommand()}`)}`;
}

describe('grandchildren of an MCP server', () => {
  it('a grandchild that traps SIGTERM is killed after the grace period (library)', async () => {
    const pidFile = join(tmp, 'lib.pid');
    const list = await listMcpTools({ command: serverWithTrappingGrandchild(pidFile) });
    expect(list.tools).toHaveLength(7);
    const pid = await readPid(pidFile);
    started.push(pid);
    // listMcpTools resolves only once the group is empty or SIGKILL was sent.
    expect(await waitGone(pid, 2000)).toBe(true);
    expect(liveChildren()).toBe(0);
  });

  it('the same through the built CLI: search exits 0 and leaves nothing running', async () => {
    const pidFile = join(tmp, 'cli.pid');
    const r = await spawnCli([
      'search',
      '-c',
      `mcp:${serverWithTrappingGrandchild(pidFile)}`,
      'create',
      'issue',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { matches: string[] }).matches[0]).toBe('mcp__test_server__create_issue');
    const pid = await readPid(pidFile);
    started.push(pid);
    expect(await waitGone(pid, 2000)).toBe(true);
    expect(alive(pid)).toBe(false);
  });
});
