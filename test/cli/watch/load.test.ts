/**
 * `watch --proxy` under concurrent load, untimed: 20 clients at once, each one conversation, every call in
 * the JSON lines and in -o, each session's calls in order (test/bench/watch-load.mjs, the figures' script,
 * run small; it exits 1 on a call lost or out of order, or a credential in -o).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

describe('watch --proxy: 20 concurrent clients', () => {
  it('loses no call and reorders none within a session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-load-'));
    try {
      const out = join(dir, 'load.json');
      const args = ['test/bench/watch-load.mjs', '--calls', '200', '--clients', '20', '--json', out];
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (b: Buffer) => {
        text += b.toString('utf8');
      });
      child.stderr.on('data', (b: Buffer) => {
        text += b.toString('utf8');
      });
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(text).toContain('lost or reordered: none (200 JSON lines, 20 sessions, -o 200 calls)');
      expect(code).toBe(0);
      const figures = JSON.parse(readFileSync(out, 'utf8')) as { problems: string[]; lost_or_reordered: number };
      expect(figures.problems).toEqual([]);
      expect(figures.lost_or_reordered).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
