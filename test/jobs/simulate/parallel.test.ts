/**
 * Issue 27, "bulk that scales out": README's GNU parallel recipe, run exactly as written (the code block is read
 * from README.md) with the real `parallel` (Debian's package; .ci/run installs it, and there a missing one fails;
 * elsewhere it is a skip with a printed line). `toolsearch` is the built CLI, `hosts.txt` names this machine (`:`).
 * The merged aggregate must equal the one-process run over the same files — also when one shard's first attempt is
 * killed and `--retries` runs it again.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, baseEnv } from '../../cli/helpers.js';
import { tempDir } from '../../hardening/helpers.js';

const tmp = tempDir('toolsearch-parallel-');
afterAll(() => tmp.cleanup());

const hasParallel = spawnSync('sh', ['-c', 'command -v parallel'], { encoding: 'utf8' }).status === 0;
if (!hasParallel) {
  if (process.env.TOOLSEARCH_CI === '1')
    throw new Error('GNU parallel is not installed: .ci/run installs it (apt-get)');
  console.log('skipped: GNU parallel is not installed (apt-get install parallel); the sharding recipe is not run');
}

/** README's recipe: the shell block that runs `parallel … --sshloginfile`. */
function recipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const found = blocks.filter((b) => /^parallel .*--sshloginfile/m.test(b));
  expect(found).toHaveLength(1);
  return found[0]!;
}

const GOOD = readFileSync(join(ROOT, 'fixtures/bulk/sessions.jsonl'), 'utf8').trimEnd().split('\n');
const BAD = readFileSync(join(ROOT, 'fixtures/bulk/some-bad-sessions.jsonl'), 'utf8').trimEnd().split('\n');

/** A working directory: sessions/ in 5 shards (one with failed sessions), catalog.yaml, hosts.txt, a `toolsearch`. */
function workdir(name: string, killFirstOf: string | null): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = join(tmp.dir, name);
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  mkdirSync(join(dir, 'bin'));
  const lines = [...GOOD, ...BAD, ...GOOD, ...GOOD];
  for (let s = 0; s < 5; s++)
    writeFileSync(join(dir, 'sessions', `shard-${s}.jsonl`), `${lines.filter((_, i) => i % 5 === s).join('\n')}\n`);
  copyFileSync(join(ROOT, 'fixtures/catalogs/demo.yaml'), join(dir, 'catalog.yaml'));
  writeFileSync(join(dir, 'hosts.txt'), ':\n');
  // `toolsearch` on PATH: the built CLI; for one shard, its first attempt is killed before it writes anything.
  const kill =
    killFirstOf === null
      ? ''
      : `case "$*" in *${killFirstOf}*) ` +
        `if [ ! -e "${dir}/killed" ]; then : > "${dir}/killed"; kill -9 $$; fi ;; esac\n`;
  const shim = join(dir, 'bin', 'toolsearch');
  writeFileSync(shim, `#!/bin/sh\n${kill}exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return { dir, env: baseEnv({ PATH: `${join(dir, 'bin')}:${process.env.PATH}`, HOME: dir }) };
}

function sh(command: string, dir: string, env: NodeJS.ProcessEnv) {
  return spawnSync('/bin/bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: 300_000 });
}

describe.skipIf(!hasParallel)("README's GNU parallel recipe", () => {
  it.each([
    ['every shard at the first attempt', null],
    ['a shard killed once and retried', 'shard-3.jsonl'],
  ])('%s: the merged aggregate is the one-process run', { timeout: 300_000 }, (_l, kill) => {
    const { dir, env } = workdir(kill === null ? 'plain' : 'retried', kill);
    const run = sh(recipe(), dir, env);
    // As one run over the files: exit 2, for the shard with failed sessions (listed in the aggregate).
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.split('\n').at(-2)).toMatch(/^error: 2 of 23 sessions failed to read/);
    // The merged aggregate, as data and as the recipe printed it, against one process over the same files.
    const merged = sh('toolsearch aggregate parts/*.json --json', dir, env);
    const whole = sh('toolsearch simulate sessions/*.jsonl -c catalog.yaml --jobs 1 --no-tokens --json', dir, env);
    expect(whole.status).toBe(2);
    expect(merged.stdout).toBe(whole.stdout);
    const human = sh('toolsearch simulate sessions/*.jsonl -c catalog.yaml --jobs 1 --no-tokens', dir, env);
    expect(run.stdout).toBe(human.stdout);
    const agg = JSON.parse(merged.stdout) as { sessions: { replayed: number; failed: number } };
    expect(agg.sessions.replayed + agg.sessions.failed).toBe(GOOD.length * 3 + BAD.length);
    expect(agg.sessions.failed).toBeGreaterThan(0);
    // The job log: one line per shard, each ended 0; the killed shard ran twice.
    const log = readFileSync(join(dir, 'parts.log'), 'utf8').trimEnd().split('\n').slice(1);
    const final = new Map(
      log.map((l) => [
        l
          .split('\t')
          .at(-1)!
          .match(/shard-\d/)![0],
        l.split('\t')[6],
      ]),
    );
    expect([...final.keys()].sort()).toEqual(['shard-0', 'shard-1', 'shard-2', 'shard-3', 'shard-4']);
    expect(new Set(final.values())).toEqual(new Set(['0']));
    expect(existsSync(join(dir, 'killed'))).toBe(kill !== null);
  });
});
