/**
 * Issue 14, finding 12 (and issue 15 item 4, the glob part): suite globs
 * are matched by picomatch, tinyglobby's matcher (`{demo,conversations}.yaml`, `[dc]*.yaml`), and
 * walks end on symbolic-link loops (`a/up -> ..` used to hang `test` at
 * ~1 GB) and past the depth bound. Through the built CLI (`npm run build` first).
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandSuitePaths, MAX_WALK_DEPTH } from '../../src/io/glob.js';
import { DEMO, ROOT, spawnCli, tempDir } from '../hardening/helpers.js';

const tmp = tempDir('toolsearch-glob-loops-');
afterAll(() => tmp.cleanup());
const SUITES = join(ROOT, 'fixtures/suites');

/** The demo suite with an absolute catalog path, so it runs from anywhere. */
function demoSuite(path: string): void {
  writeFileSync(
    path,
    readFileSync(join(SUITES, 'demo.yaml'), 'utf8').replace(
      'catalog: ../catalogs/demo.yaml',
      `catalog: ${JSON.stringify(DEMO)}`,
    ),
  );
}

describe('suite globs (picomatch)', () => {
  it.each(['{demo,conversations}.yaml', '[dc]*.yaml'])('%s expands to both suites', async (pattern) => {
    const r = await spawnCli(['test', pattern, '--reporter', 'tap'], { cwd: SUITES });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const both = await spawnCli(['test', 'conversations.yaml', 'demo.yaml', '--reporter', 'tap'], { cwd: SUITES });
    expect(r.stdout).toBe(both.stdout);
  });

  it('keeps the message when nothing matches', async () => {
    const r = await spawnCli(['test', '{nope,none}.yaml'], { cwd: SUITES });
    expect(r.stderr).toBe('error: no file matches the pattern "{nope,none}.yaml"\n');
    expect(r.code).toBe(2);
  });
});

describe('symbolic-link loops and depth', () => {
  const loop = join(tmp.dir, 'loop');
  mkdirSync(join(loop, 'a'), { recursive: true });
  demoSuite(join(loop, 'a', 'demo.yaml'));
  symlinkSync('..', join(loop, 'a', 'up'));
  symlinkSync('.', join(loop, 'a', 'self'));

  it('a directory argument with a/up -> .. and a/self -> . lists each suite once', { timeout: 15_000 }, async () => {
    expect(expandSuitePaths([loop])).toEqual([join(loop, 'a', 'demo.yaml')]);
    const r = await spawnCli(['test', loop, '--reporter', 'tap']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('TAP version 13');
  });

  it('** in such a directory follows the links, entering each directory once', { timeout: 15_000 }, async () => {
    const r = await spawnCli(['test', '**/*.yaml', '--reporter', 'tap'], { cwd: loop });
    expect(r.code, r.stderr).toBe(0);
    const alone = await spawnCli(['test', 'a/demo.yaml', '--reporter', 'tap'], { cwd: loop });
    expect(r.stdout).toBe(alone.stdout);
  });

  it(`a directory walk stops at ${MAX_WALK_DEPTH} levels`, () => {
    const deep = join(tmp.dir, 'deep');
    let d = deep;
    for (let i = 0; i < MAX_WALK_DEPTH + 5; i++) d = join(d, 'd');
    mkdirSync(d, { recursive: true });
    cpSync(join(SUITES, 'demo.yaml'), join(d, 'demo.yaml'));
    cpSync(join(SUITES, 'demo.yaml'), join(deep, 'd', 'demo.yaml'));
    expect(expandSuitePaths([deep])).toEqual([join(deep, 'd', 'demo.yaml')]);
  });
});
