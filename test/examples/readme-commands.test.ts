// Every `toolsearch …` command line in a README code block runs through the
// BUILT CLI (`npm run build` first) as written, from a copy of the
// repository's layout (fixtures/ linked) so the files an example writes stay
// out of the tree: none is a usage error or an internal error (exit 2 or 70;
// examples that show a failed check exit 1, as the README says). A block
// whose shown output leaves lines out (a `…` line) says so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, baseEnv } from '../cli/helpers.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-readme-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
symlinkSync(join(ROOT, 'fixtures'), join(tmp, 'fixtures'));

interface Block {
  readonly line: number;
  readonly text: string;
}

/** The fenced code blocks of the README, with the line each starts on. */
function blocks(): Block[] {
  const out: Block[] = [];
  const lines = README.split('\n');
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```/.test(lines[i]!)) continue;
    if (start < 0) start = i;
    else {
      out.push({ line: start + 1, text: lines.slice(start + 1, i).join('\n') });
      start = -1;
    }
  }
  return out;
}

/** The command lines of the blocks, `$ ` and `npx ` dropped, in README order. */
function commands(): Array<{ line: number; command: string }> {
  const out: Array<{ line: number; command: string }> = [];
  for (const b of blocks()) {
    for (const [i, raw] of b.text.split('\n').entries()) {
      const m = /^\s*(?:\$ )?(?:npx )?(toolsearch .*)$/.exec(raw);
      if (!m) continue;
      // A live server that runs until Ctrl-C (test/cli/watch/ runs it with clients).
      if (m[1]!.startsWith('toolsearch watch ')) continue;
      out.push({ line: b.line + 1 + i, command: m[1]!.replace(/\s+#.*$/, '') });
    }
  }
  return out;
}

describe('README examples', () => {
  const all = commands();

  it('there are examples to run', () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it.each(all.map((c) => [`README.md:${c.line}`, c.command] as const))(
    '%s: %s',
    { timeout: 120_000 },
    (_where, command) => {
      // `toolsearch` is the built CLI; the shell expands globs and redirections as the reader's does.
      const line = command.replace(/^toolsearch /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
      // `aggregate parts/*.json` stands for the reader's parts: those the examples before it wrote.
      const fixed = line.replace(/ parts\/\*\.json/, ' part-1.json part-2.json');
      const r = spawnSync('/bin/bash', ['-c', fixed], { cwd: tmp, env: baseEnv(), encoding: 'utf8', timeout: 110_000 });
      expect(r.stderr).not.toMatch(/internal error|this is a bug/);
      expect([0, 1], `${command}\n${r.stderr}`).toContain(r.status);
    },
  );

  it('a block whose output leaves lines out says so', () => {
    const lines = README.split('\n');
    for (const b of blocks()) {
      if (!b.text.split('\n').some((l) => l.trim() === '…')) continue;
      // The sentence before the block (its last few lines) says the output is shortened.
      const before = lines.slice(Math.max(0, b.line - 4), b.line - 1).join(' ');
      expect(before, `README.md:${b.line}`).toMatch(/output shortened/);
    }
  });

  it('names no file the repository lacks', () => {
    expect(README).not.toMatch(/SPEC\.md|SPEC §|issue tracker/);
  });
});
