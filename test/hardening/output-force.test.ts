/**
 * Issue 27, finding 1 and its general rule (src/io/output.ts, src/jobs/suite/run.ts): an output never
 * replaces a file the run reads or would have read — the inputs of an invalid suite included — and
 * never an existing file that is not a report toolsearch wrote, without `--force`. Through the built
 * CLI. Before the fix, `test s.yaml -r junit -o cat.yaml` with an unknown key in `s.yaml` exited 2
 * with `cat.yaml` replaced by the JUnit report.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-output-force-');
afterAll(() => tmp.cleanup());
let n = 0;

function dir(): string {
  const d = join(tmp.dir, `p${n++}`);
  mkdirSync(d);
  copyFileSync(join(ROOT, 'fixtures/catalogs/demo.yaml'), join(d, 'cat.yaml'));
  copyFileSync(join(ROOT, 'fixtures/transcripts/keyword-search-then-call.json'), join(d, 't.json'));
  return d;
}

const GOOD_SUITE =
  'catalog: cat.yaml\ncases:\n  - name: slack\n    query: slack send message\n    first: mcp__slack__send_message\n';

describe.concurrent('finding 1: the inputs of an invalid suite are inputs too', () => {
  it.each([
    ['an unknown top-level key', 'catalog: cat.yaml\nbogus: 1\ncases: []\n', 'cat.yaml'],
    ['an unknown key in a case', 'catalog: cat.yaml\ncases:\n  - name: x\n    query: a\n    frist: b\n', 'cat.yaml'],
    ['a case transcript, the suite invalid', 'cases:\n  - name: x\n    transcript: t.json\n    bogus: 1\n', 't.json'],
    ['a catalog list', 'catalog: [cat.yaml]\nextra: true\n', 'cat.yaml'],
  ])('test <suite with %s> -r junit -o <the file it names>: exit 2, the file unchanged', async (_l, suite, target) => {
    const d = dir();
    writeFileSync(join(d, 's.yaml'), suite);
    const before = readFileSync(join(d, target), 'latin1');
    const r = await spawnCli(['test', join(d, 's.yaml'), '-r', 'junit', '-o', join(d, target)]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: --output ${join(d, target)} would overwrite the file named by the invalid suite, ` +
        'an input of this run: write it to another file\n',
    );
    expect(readFileSync(join(d, target), 'latin1')).toBe(before);
  });

  it('--force does not let an output replace an input of an invalid suite', async () => {
    const d = dir();
    writeFileSync(join(d, 's.yaml'), 'catalog: cat.yaml\nbogus: 1\n');
    const before = readFileSync(join(d, 'cat.yaml'), 'latin1');
    const r = await spawnCli(['test', join(d, 's.yaml'), '-r', 'junit', '-o', join(d, 'cat.yaml'), '--force']);
    expect(r.code).toBe(2);
    expect(readFileSync(join(d, 'cat.yaml'), 'latin1')).toBe(before);
  });

  it('an invalid suite with its own output still writes the JUnit error there (exit 2)', async () => {
    const d = dir();
    writeFileSync(join(d, 's.yaml'), 'catalog: cat.yaml\nbogus: 1\n');
    const r = await spawnCli(['test', join(d, 's.yaml'), '-r', 'junit', '-o', join(d, 'junit.xml')]);
    expect(r.code).toBe(2);
    expect(readFileSync(join(d, 'junit.xml'), 'utf8')).toMatch(/^<\?xml[^]*unknown key "bogus"/);
  });
});

describe.concurrent('an existing file that is not our report is replaced only with --force', () => {
  const notes = 'my notes, not a report\n';
  it.each([
    ['test -r junit', (d: string, o: string) => ['test', join(d, 's.yaml'), '-r', 'junit', '-o', o]],
    ['test -r tap', (d: string, o: string) => ['test', join(d, 's.yaml'), '-r', 'tap', '-o', o]],
    ['test -r json', (d: string, o: string) => ['test', join(d, 's.yaml'), '-r', 'json', '-o', o]],
    ['test -r human', (d: string, o: string) => ['test', join(d, 's.yaml'), '-r', 'human', '-o', o]],
    ['test -r html', (d: string, o: string) => ['test', join(d, 's.yaml'), '-r', 'html', '-o', o]],
    [
      'simulate --html',
      (d: string, o: string) => ['simulate', join(d, 't.json'), '-c', join(d, 'cat.yaml'), '--html', o],
    ],
  ])(
    '%s -o <notes>: exit 2 and the notes kept; --force replaces; a second run replaces its own report',
    async (_l, argv) => {
      const d = dir();
      writeFileSync(join(d, 's.yaml'), GOOD_SUITE);
      const out = join(d, 'notes.txt');
      writeFileSync(out, notes);
      const refused = await spawnCli(argv(d, out));
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      const opt = argv(d, out).includes('--html') ? '--html' : '--output';
      expect(refused.stderr).toBe(
        `error: ${opt} ${out} exists and is not a report toolsearch wrote: ` +
          'pass --force to replace it, or write to another file\n',
      );
      expect(readFileSync(out, 'utf8')).toBe(notes);
      const forced = await spawnCli([...argv(d, out), '--force']);
      expect(forced.code).toBe(0);
      const first = readFileSync(out, 'utf8');
      expect(first).not.toBe(notes);
      // What we wrote is ours: the same command replaces it without --force.
      const again = await spawnCli(argv(d, out));
      expect(again.code).toBe(0);
      expect(readFileSync(out, 'utf8').length).toBeGreaterThan(0);
    },
  );

  it('an empty file is replaced without --force', async () => {
    const d = dir();
    writeFileSync(join(d, 's.yaml'), GOOD_SUITE);
    writeFileSync(join(d, 'empty.xml'), '');
    const r = await spawnCli(['test', join(d, 's.yaml'), '-r', 'junit', '-o', join(d, 'empty.xml')]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(d, 'empty.xml'), 'utf8')).toMatch(/^<\?xml/);
  });
});
