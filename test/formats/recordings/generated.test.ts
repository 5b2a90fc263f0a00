/**
 * The fixtures of issue 28 that libraries write are what a fresh run of
 * their generator writes: @google/genai, openai and @openai/agents need
 * Node >= 22, so this runs on Node 22 and 24 (CI runs the suite there) and
 * is skipped, saying so, on Node 20. @anthropic-ai/sdk's stream runs beside
 * openai's in gen-sse.mjs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR, RECORDINGS, ROOT } from './helpers.js';

const GENERATORS: ReadonlyArray<readonly [string, string]> = [
  ['gen-gemini.mjs', 'gemini'],
  ['gen-sse.mjs', 'sse'],
  ['gen-agents-state.mjs', 'openai-agents'],
  ['gen-responses.mjs', 'responses'],
];

if (NODE_MAJOR < 22)
  console.log(
    `generated.test.ts: skipped on Node ${process.versions.node} (the generators' libraries need Node >= 22)`,
  );

/** gen-gemini.mjs records with nock 15's recorder too, which needs Node 22.20 or later. */
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const NOCK_OK = major > 22 || (major === 22 && minor >= 20);
if (NODE_MAJOR >= 22 && !NOCK_OK)
  console.log(`generated.test.ts: gen-gemini.mjs skipped on Node ${process.versions.node} (nock 15 needs 22.20)`);

describe.skipIf(NODE_MAJOR < 22)('recordings written by the libraries equal a fresh generation', () => {
  for (const [script, folder] of GENERATORS) {
    it.skipIf(script === 'gen-gemini.mjs' && !NOCK_OK)(
      `${script} writes fixtures/recordings/${folder}/ again`,
      () => {
        const out = mkdtempSync(join(tmpdir(), 'toolsearch-gen-'));
        try {
          execFileSync(process.execPath, [join(ROOT, 'test/tools/recordings', script), out], { stdio: 'pipe' });
          const committed = readdirSync(`${RECORDINGS}${folder}`)
            .filter((f) => !f.endsWith('.md'))
            .sort();
          expect(readdirSync(out).sort()).toEqual(committed);
          for (const f of committed)
            expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(`${RECORDINGS}${folder}/${f}`, 'utf8'));
        } finally {
          rmSync(out, { recursive: true, force: true });
        }
      },
      60_000,
    );
  }
});
