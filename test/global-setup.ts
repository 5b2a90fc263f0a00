/**
 * Runs once, before the workers start: every CLI process the tests spawn
 * keeps its loaded-catalog cache in one fresh directory (not the user's
 * ~/.cache), removed at the end. The same catalogs are loaded many times
 * across the suite, so most runs after the first go through cache hits —
 * and every test's expected output holds for both paths.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-test-cache-'));
  process.env.TOOLSEARCH_CACHE_DIR = dir;
  delete process.env.TOOLSEARCH_CACHE;
  return () => rmSync(dir, { recursive: true, force: true });
}
