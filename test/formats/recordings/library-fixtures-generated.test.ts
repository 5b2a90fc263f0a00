/**
 * The committed fixtures of fixtures/recordings/{nock,vcr,har,ai-sdk,openinference} are what their
 * scripts (test/tools/recordings/*.mjs) make now: each script runs again into a scratch directory and
 * every file must come out byte for byte the same (the scripts pin what varies between runs). Most of
 * the libraries they run (nock 15, openai 7, ai 7, @ai-sdk/otel) need Node 22 or later: on Node 20 those
 * scripts are skipped with a printed reason (CI runs them on Node 22 and 24); LangChain's runs everywhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
/** nock 15 needs Node 22.20; the others Node 22. */
const SUPPORTED = major > 22 || (major === 22 && minor >= 20);
if (!SUPPORTED)
  console.log(
    `library-fixtures-generated: nock, vcr, har, ai-sdk and openinference skipped on Node ${process.versions.node} ` +
      '(nock 15, openai 7, ai 7 and @ai-sdk/otel need Node 22.20 or later; CI runs them on Node 22 and 24)',
  );

const scratch = mkdtempSync(join(tmpdir(), 'toolsearch-library-fixtures-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** [script, fixture directory, needs Node 22.20]. */
const SCRIPTS: ReadonlyArray<readonly [string, string, boolean]> = [
  ['nock.mjs', 'nock', true],
  ['vcr.mjs', 'vcr', true],
  ['har.mjs', 'har', true],
  ['ai-sdk.mjs', 'ai-sdk', true],
  ['openinference.mjs', 'openinference', true],
  ['langchain.mjs', 'langchain', false],
];

describe('fixtures/recordings/ are what their scripts make', () => {
  for (const [script, dir, needs22] of SCRIPTS) {
    it.skipIf(needs22 && !SUPPORTED)(
      `test/tools/recordings/${script} makes fixtures/recordings/${dir}/ again`,
      () => {
        const out = join(scratch, dir);
        execFileSync(process.execPath, [join(root, 'test/tools/recordings', script), out], {
          cwd: root,
          stdio: ['ignore', 'ignore', 'pipe'],
          timeout: 120_000,
        });
        const committed = join(root, 'fixtures/recordings', dir);
        const files = readdirSync(committed)
          .filter((f) => !f.endsWith('.md'))
          .sort();
        expect(readdirSync(out).sort()).toEqual(files);
        for (const f of files)
          expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
      },
      150_000,
    );
  }
});
