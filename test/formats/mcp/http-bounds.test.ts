/**
 * Issue 14, findings 10 and 16: Streamable HTTP answers are bounded like
 * stdio lines, and paginating does not grow the listeners on the SDK's
 * AbortSignal. The servers are local (127.0.0.1, `fixtures/hostile-http.mjs`)
 * and stop themselves; the CLI runs are of the built binary (`npm run build`).
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listMcpTools } from '../../../src/formats/mcp/list-tools.js';
import { spawnCli } from '../../hardening/helpers.js';
import { HOSTILE_HTTP_SERVER, spawnHttpServer } from './helpers.js';

afterEach(() => vi.unstubAllGlobals());

describe('HTTP pagination (finding 16)', () => {
  it('the abort listeners on any signal given to fetch do not grow with the pages', async () => {
    const server = await spawnHttpServer(['--pages', '100'], HOSTILE_HTTP_SERVER);
    const realFetch = globalThis.fetch;
    const counts: number[] = [];
    vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => {
      if (init?.signal) counts.push(getEventListeners(init.signal, 'abort').length);
      return realFetch(input, init);
    });
    try {
      const list = await listMcpTools({ url: server.url });
      expect(list.pages).toBe(100);
      expect(list.tools).toHaveLength(100);
    } finally {
      await server.close();
    }
    expect(counts.length).toBeGreaterThanOrEqual(102);
    // Each request starts with a signal no earlier request left a listener on.
    expect(Math.max(...counts)).toBe(0);
  });
});

describe('HTTP answer size (finding 10)', () => {
  it('an initialize answer over 10 MiB is exit 2 through the CLI, and the download stops', async () => {
    const huge = 40 * 1024 * 1024;
    const server = await spawnHttpServer(['--huge', String(huge)], HOSTILE_HTTP_SERVER);
    let r;
    try {
      r = await spawnCli(['search', '-c', `mcp:${server.url}`, 'x']);
    } finally {
      await server.close();
    }
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: mcp:${server.url}: the answer to initialize is larger than 10 MiB, the most one MCP message may take ` +
        '(set TOOLSEARCH_MAX_MCP_MESSAGE_BYTES to raise the limit)\n',
    );
    expect(r.code).toBe(2);
    // What the server managed to write before we hung up: the bound plus what sockets buffer, not the 40 MiB.
    const written = Number(/written (\d+)/.exec(server.stderr())?.[1]);
    expect(written).toBeLessThan(huge);
  });
});
