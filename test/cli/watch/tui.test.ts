/**
 * `watch` on a terminal, through the built CLI on a pseudo-terminal
 * (script(1)): the view starts with where to point the agent, shows the
 * session as calls arrive through the proxy, and q ends it cleanly with -o
 * written.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, ROOT, sh } from '../helpers.js';
import { type FakeProvider, fakeProvider } from './provider.js';

let dir: string;
let provider: FakeProvider;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-tui-'));
  provider = await fakeProvider();
});
afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Escape sequences out: the text a terminal would show, roughly. */
const plain = (s: string): string => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\u001b[=>78]/g, '');

describe('watch on a terminal', () => {
  it('shows the sessions live and quits on q with -o written', async () => {
    const which = await sh('command -v script');
    if (which.code !== 0) throw new Error('this test needs script(1) from util-linux (apt-get install bsdutils)');
    const out = join(dir, 'tui.jsonl');
    const cmd = `${process.execPath} ${BIN} watch --port 0 --proxy ${provider.url} -o ${out}`;
    const child = spawn('script', ['-qec', cmd, '/dev/null'], {
      cwd: ROOT,
      env: baseEnv({ TERM: 'xterm-256color' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (b: Buffer) => {
      screen += b.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const until = async (check: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 20_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`waited for ${what}:\n${plain(screen)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(plain(screen)), 'the address');
    expect(plain(screen)).toContain('waiting for model calls…');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(plain(screen))![1]!;
    const tools = ['tool_search', 'get_weather'].map((name) => ({ type: 'function', function: { name } }));
    const messages: unknown[] = [{ role: 'user', content: 'on a terminal' }];
    for (let k = 0; k < 2; k++) {
      const r = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages, tools }),
      });
      const m = ((await r.json()) as { choices: Array<{ message: { tool_calls: Array<{ id: string }> } }> }).choices[0]!
        .message;
      messages.push(m, { role: 'tool', tool_call_id: m.tool_calls[0]!.id, content: '{"matches":[]}' });
    }
    await until(() => plain(screen).includes('2 calls'), 'the session with its two calls');
    expect(plain(screen)).toContain('session s1 1/1');
    child.stdin.write('q');
    expect(await exited).toBe(0);
    const recorded = readFileSync(out, 'utf8').trim().split('\n');
    expect(recorded).toHaveLength(1);
    expect(JSON.parse(recorded[0]!)).toHaveLength(2);
  });
});
