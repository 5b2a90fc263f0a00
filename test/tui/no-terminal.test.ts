/**
 * The TUI commands without a terminal (stdin and stdout pipes), through the BUILT CLI (`npm run build`
 * first): exit 2 and a pointer to the command's --json form.
 */
import { describe, expect, test } from 'vitest';
import { run } from '../cli/helpers.js';

const DEMO = 'fixtures/catalogs/demo.yaml';
const TRANSCRIPT = 'fixtures/transcripts/keyword-search-then-call.json';

describe.concurrent('without a terminal', () => {
  test('explore exits 2 and points to search --json', async () => {
    expect(await run(['explore', '-c', DEMO])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: explore needs an interactive terminal (stdin and stdout are not ' +
        'terminals); use toolsearch search -c <file> <query> --json instead\n',
    });
  });

  test('simulate --tui exits 2 and points to simulate --json', async () => {
    expect(await run(['simulate', TRANSCRIPT, '-c', DEMO, '--tui'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: simulate --tui needs an interactive terminal (stdin and ' +
        'stdout are not terminals); use simulate --json instead\n',
    });
  });
});
