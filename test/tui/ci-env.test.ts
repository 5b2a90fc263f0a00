/**
 * Ink switches to a render-only-at-exit mode when CI or CONTINUOUS_INTEGRATION
 * is set, which would leave the TUI blank on a real terminal. prepareTui
 * imports Ink with them hidden and puts them back. Checked in a child process
 * (a fresh module cache) on the built code.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function probe(
  env: Record<string, string>,
  prepare: boolean,
): { ink: boolean; ci: string | null; ciTwo: string | null; nodeEnv: string | null } {
  const script =
    `
    const { prepareTui } = await import('./dist/tui/tty.js');
    if (${prepare}) await prepareTui();
    await import('ink');
    const { default: inCi } = await import('is-in-ci');
    console.log(JSON.stringify({ ink: inCi, ci: process.env.CI ?? null, ciTwo: process.env.CONTINUOUS_INTEGRATION ?? ` +
    `null, nodeEnv: process.env.NODE_ENV ?? null }));`;
  const base = { ...process.env };
  delete base.CI;
  delete base.CONTINUOUS_INTEGRATION;
  delete base.NODE_ENV;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...base, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as ReturnType<typeof probe>;
}

test('without prepareTui, CI=true puts Ink in CI mode (the control)', () => {
  expect(probe({ CI: 'true' }, false).ink).toBe(true);
}, 20_000);

test('prepareTui: Ink is out of CI mode, the variables are restored, React production build chosen', () => {
  expect(probe({ CI: 'true', CONTINUOUS_INTEGRATION: '1' }, true)).toEqual({
    ink: false,
    ci: 'true',
    ciTwo: '1',
    nodeEnv: 'production',
  });
  expect(probe({}, true)).toEqual({ ink: false, ci: null, ciTwo: null, nodeEnv: 'production' });
  expect(probe({ NODE_ENV: 'development' }, true).nodeEnv).toBe('development');
}, 30_000);
