/**
 * The engine recordings (fixtures/engines/recordings/) are what the real packages write: a fresh run of
 * fixtures/engines/make-recordings.mjs (ai@7.0.173 and @mastra/core 1.71.0 with a scripted mock model) gives
 * the committed files byte for byte. Needs Node >= 22.13 (Mastra), like the packages; skipped elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nodeAtLeast, ROOT } from './corpus.js';

const SUPPORTED = nodeAtLeast(22, 13);
if (!SUPPORTED)
  console.log(
    `skipped: the engine recordings are made by packages that need Node >= 22.13; this is ${process.version}`,
  );

describe.skipIf(!SUPPORTED)('the engine recordings', () => {
  it('equal a fresh run of the packages that write them', () => {
    const r = spawnSync(process.execPath, ['fixtures/engines/make-recordings.mjs', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);
});
