import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/errors.js';
import { expandSuitePaths, globFiles, isGlob } from '../../src/io/glob.js';

describe('suite paths', () => {
  const cwd = process.cwd();
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsearch-glob-'));
    for (const f of [
      'a.yaml',
      'b.yml',
      'c.json',
      'notes.txt',
      '.hidden.yaml',
      'sub/d.yaml',
      'sub/deep/e.yaml',
      'sub/deep/f.json',
      '.git/g.yaml',
      'node_modules/h.yaml',
    ]) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), 'x');
    }
    process.chdir(dir);
  });
  afterAll(() => process.chdir(cwd));

  it('knows a glob', () => {
    expect(isGlob('a/*.yaml')).toBe(true);
    expect(isGlob('a/b?.yaml')).toBe(true);
    expect(isGlob('a/b.yaml')).toBe(false);
  });

  it('* stays in one segment and skips dot files', () => {
    expect(globFiles('*.yaml')).toEqual(['a.yaml']);
    expect(globFiles('*')).toEqual(['a.yaml', 'b.yml', 'c.json', 'notes.txt']);
    expect(globFiles('sub/*.yaml')).toEqual(['sub/d.yaml']);
    expect(globFiles('?.y*ml')).toEqual(['a.yaml', 'b.yml']);
  });

  it('** spans directories (not dot directories or node_modules)', () => {
    expect(globFiles('**/*.yaml')).toEqual(['a.yaml', 'sub/d.yaml', 'sub/deep/e.yaml']);
    expect(globFiles('sub/**/*.json')).toEqual(['sub/deep/f.json']);
    expect(globFiles('sub/**')).toEqual(['sub/d.yaml', 'sub/deep/e.yaml', 'sub/deep/f.json']);
  });

  it('works with absolute patterns', () => {
    expect(globFiles(join(dir, 'sub', '*.yaml'))).toEqual([join(dir, 'sub', 'd.yaml')]);
  });

  it('expands globs and directories, keeps plain paths, drops duplicates', () => {
    expect(expandSuitePaths(['sub', '*.json', 'a.yaml', 'missing.yaml', 'c.json'])).toEqual([
      'sub/d.yaml',
      'sub/deep/e.yaml',
      'sub/deep/f.json',
      'c.json',
      'a.yaml',
      'missing.yaml',
    ]);
  });

  it('a glob without matches, or a directory without suites, is an error', () => {
    expect(() => expandSuitePaths(['*.toml'])).toThrow(InputError);
    expect(() => expandSuitePaths(['*.toml'])).toThrow('no file matches the pattern "*.toml"');
    mkdirSync(join(dir, 'empty'), { recursive: true });
    expect(() => expandSuitePaths(['empty'])).toThrow('no suite files (.yaml, .yml, .json) in the directory "empty"');
  });
});
