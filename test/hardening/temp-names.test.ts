/**
 * Issue 27, finding 11: the temporary file of an output has a random name, created exclusively: another user who
 * pre-creates names in a shared directory cannot make the write fail, and their files are left alone. Before,
 * the names were `.<name>.<pid>.<counter>.tmp`: created in advance, they made every write fail with EEXIST at the
 * end of a run (and the failed write then removed the other user's file).
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/io/atomic.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-temp-names-');
afterAll(() => tmp.cleanup());

describe('finding 11: temporary names nobody can guess', () => {
  it('names taken in advance for this process (every counter up to 200, files and links) change nothing', () => {
    const d = join(tmp.dir, 'shared');
    mkdirSync(d);
    const planted: string[] = [];
    for (let i = 0; i < 200; i++) {
      const name = `.report.xml.${process.pid}.${i.toString(36)}.tmp`;
      if (i % 2 === 0) writeFileSync(join(d, name), 'not yours');
      else symlinkSync('/etc/passwd', join(d, name));
      planted.push(name);
    }
    for (let k = 0; k < 5; k++) writeFileAtomic(join(d, 'report.xml'), `<report ${k}/>\n`);
    expect(readFileSync(join(d, 'report.xml'), 'utf8')).toBe('<report 4/>\n');
    // Every planted name is still there, as it was; no temporary file of ours is left.
    expect(readdirSync(d).sort()).toEqual([...planted, 'report.xml'].sort());
    for (const [i, name] of planted.entries()) {
      if (i % 2 === 0) expect(readFileSync(join(d, name), 'utf8')).toBe('not yours');
      else expect(lstatSync(join(d, name)).isSymbolicLink()).toBe(true);
    }
  });

  it('a write that fails removes only its own temporary file', () => {
    const d = join(tmp.dir, 'gone');
    expect(() => writeFileAtomic(join(d, 'x', 'out.json'), '{}')).toThrow(/its directory does not exist/);
  });
});
