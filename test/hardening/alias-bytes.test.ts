/**
 * Issue 14, finding 5: YAML aliases are bounded by the bytes of text they
 * add, not only by their count: 1,000 aliases of one 600 KB string (a
 * 636 KB file) used to expand to 600 MB and end in `Invalid string length`
 * (exit 70) or out of memory. The bound (64 MiB by default,
 * TOOLSEARCH_MAX_ALIAS_BYTES) is checked while composing, at the alias
 * that crosses it. Through the built CLI (`npm run build` first).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { limitsFromEnv } from '../../src/cli/limits.js';
import { InputError } from '../../src/io/errors.js';
import { parseText } from '../../src/io/parse.js';
import { DEFAULT_LIMITS } from '../../src/io/read.js';
import { spawnCli, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function amplifier(stringBytes: number, aliases: number): string {
  const lines = ['tools:', `  - {name: t0, description: &big "${'x'.repeat(stringBytes)}"}`];
  for (let i = 1; i <= aliases; i++) lines.push(`  - {name: t${i}, description: *big}`);
  return `${lines.join('\n')}\n`;
}

describe('bytes reached through YAML aliases', () => {
  it('1,000 aliases of a 600 KB string: exit 2 at the alias that crosses 64 MiB, quickly', async () => {
    const file = tmp.file('amplifier.yaml', amplifier(600_000, 1000));
    const r = await spawnCli(['lint', '-c', file, '--no-cache']);
    expect(r.stdout).toBe('');
    // 111 aliases add 66.6 MB; the 112th (line 114: the anchor is on line 2) crosses 67,108,864 bytes.
    expect(r.stderr).toBe(
      `error: ${file}:114:31: YAML aliases expand to more than 67108864 bytes of text ` +
        '(alias *big; set TOOLSEARCH_MAX_ALIAS_BYTES to raise the limit)\n' +
        '    - {name: t112, description: *big}\n' +
        '                                ^\n',
    );
    expect(r.code).toBe(2);
  });

  it('TOOLSEARCH_MAX_ALIAS_BYTES sets the bound; within it the file loads', async () => {
    const file = tmp.file('small.yaml', amplifier(10, 3));
    const over = await spawnCli(['search', '-c', file, 'x', '--no-cache'], {
      env: { TOOLSEARCH_MAX_ALIAS_BYTES: '25' },
    });
    expect(over.stderr.split('\n')[0]).toBe(
      `error: ${file}:5:29: YAML aliases expand to more than 25 bytes of text ` +
        '(alias *big; set TOOLSEARCH_MAX_ALIAS_BYTES to raise the limit)',
    );
    expect(over.code).toBe(2);
    const within = await spawnCli(['search', '-c', file, 'xxxxxxxxxx', '--no-cache', '--json'], {
      env: { TOOLSEARCH_MAX_ALIAS_BYTES: '30' },
    });
    expect(within.code, within.stderr).toBe(0);
    expect((JSON.parse(within.stdout) as { matches: string[] }).matches).toEqual(['t0', 't1', 't2', 't3']);
  });

  it('counts keys and multi-byte text in UTF-8, and only what aliases add', () => {
    const doc = 'a: &m {"ключ": "значение"}\nb: *m\nc: *m\n';
    // Each alias adds "ключ" (8 bytes) and "значение" (16 bytes): 24 bytes.
    expect(() => parseText('m.yaml', doc, { limits: { maxAliasBytes: 48 } })).not.toThrow();
    let err: unknown;
    try {
      parseText('m.yaml', doc, { limits: { maxAliasBytes: 47 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).headline).toBe(
      'm.yaml:3:4: YAML aliases expand to more than 47 bytes of text ' +
        '(alias *m; set TOOLSEARCH_MAX_ALIAS_BYTES to raise the limit)',
    );
  });

  it('the default is 64 MiB; the variable takes a positive integer', () => {
    expect(DEFAULT_LIMITS.maxAliasBytes).toBe(64 * 1024 * 1024);
    expect(limitsFromEnv({ TOOLSEARCH_MAX_ALIAS_BYTES: '1000' })).toEqual({ maxAliasBytes: 1000 });
    expect(() => limitsFromEnv({ TOOLSEARCH_MAX_ALIAS_BYTES: '0' })).toThrow(
      'TOOLSEARCH_MAX_ALIAS_BYTES must be a positive integer, got "0"',
    );
  });
});
