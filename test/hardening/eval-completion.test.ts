/**
 * Issue 27, finding 10: eval's fuse.js baseline searches queries of at most 1,000 characters (a longer one is
 * reported as a query it rejects, and ranks nothing): before, a 200 KB query took 66 s. And bash completion keeps a
 * file name whole and unexpanded: before, `my catalog.yaml` was offered as `my` and `catalog.yaml`, and a name with
 * `*` was globbed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sh } from '../cli/helpers.js';
import { DEMO, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-eval-completion-');
afterAll(() => tmp.cleanup());

describe.concurrent('finding 10', () => {
  it('a 200 KB query: eval ends in seconds; fuse rejects it, counted and listed', async () => {
    const long = 'post message channel '.repeat(10_000);
    const queries = tmp.file(
      'q.jsonl',
      `${JSON.stringify({ query: 'post message channel', relevant: ['mcp__slack__send_message'] })}\n` +
        `${JSON.stringify({ query: long, relevant: ['mcp__slack__send_message'] })}\n`,
    );
    const start = performance.now();
    const r = await spawnCli(['eval', '-c', DEMO, queries, '--scorers', 'spec,fuse', '--json']);
    expect(performance.now() - start).toBeLessThan(20_000);
    expect(r.code, r.stderr).toBe(0);
    const fuse = JSON.parse(r.stdout).scorers.find((s: { name: string }) => s.name === 'fuse');
    expect(fuse.invalid).toEqual([
      {
        line: 2,
        query: long,
        reason:
          'a query of 210000 characters: the fuse.js baseline searches at most 1000 (its time grows as the length ' +
          'times the tools)',
      },
    ]);
    const text = await spawnCli(['eval', '-c', DEMO, queries, '--scorers', 'fuse']);
    expect(text.stdout).toContain('fuse: 1 rejected query (no result):');
  }, 60_000);

  it('bash completion: a file name with a space or a * is one reply, as written', async () => {
    const d = join(tmp.dir, 'files');
    mkdirSync(d);
    for (const f of ['my catalog.yaml', 'a*b.yaml', 'other.yaml']) writeFileSync(join(d, f), '');
    const script = tmp.file('completion.bash', (await spawnCli(['completion', 'bash'])).stdout);
    const complete = async (words: readonly string[]) => {
      const r = await sh(
        `cd ${JSON.stringify(d)} && source ${JSON.stringify(script)} && ` +
          `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
          `_toolsearch; printf '<%s>\\n' "\${COMPREPLY[@]}"`,
      );
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.trimEnd().split('\n');
    };
    expect(await complete(['toolsearch', 'search', '-c', 'my'])).toEqual(['<my catalog.yaml>']);
    expect(await complete(['toolsearch', 'lint', 'a'])).toEqual(['<a*b.yaml>']);
    expect((await complete(['toolsearch', 'test', ''])).sort()).toEqual([
      '<a*b.yaml>',
      '<my catalog.yaml>',
      '<other.yaml>',
    ]);
  });
});
