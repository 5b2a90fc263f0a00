#!/usr/bin/env node
/**
 * `npm run build`: tsc's output (the library) and the CLI's bundle, written
 * into a fresh directory that replaces dist/ only when everything succeeded.
 * A CLI started during a rebuild (tests spawn it while `npm test` builds)
 * runs the old build or the new one, never a half-written or missing one;
 * a failed build leaves the old dist/ as it was.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = `${ROOT}dist`;

/** Moves `fresh` to `target`, the old `target` (if any) aside and then away; retried if another build got between. */
function replaceDir(fresh, target) {
  for (let attempt = 0; ; attempt++) {
    const old = `${fresh}.old`;
    let moved = false;
    try {
      renameSync(target, old);
      moved = true;
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      // The two renames leave `target` missing for a moment; a CLI started then finds no
      // dist/ at all, which is far less likely than the whole build's time of a rm -rf + write.
      renameSync(fresh, target);
    } catch (err) {
      if ((err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') || attempt > 10) throw err;
      continue; // another build put its dist/ there meanwhile: move that one aside too
    } finally {
      if (moved) rmSync(old, { recursive: true, force: true });
    }
    return;
  }
}

const fresh = mkdtempSync(`${ROOT}.dist-`);
chmodSync(fresh, 0o755); // mkdtemp makes it 0700: dist/ is read by everyone who runs the package
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', `${ROOT}tsconfig.json`, '--outDir', fresh], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`tsc failed (exit ${r.status ?? r.signal}): dist/ is left as it was`);
  await bundle(`${fresh}/bundle`);
  replaceDir(fresh, DIST);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
