/**
 * The real-server catalogs of fixtures/catalogs/servers/ are what `toolsearch import` reads from the pinned
 * servers today (@modelcontextprotocol/server-everything, a devDependency): the engines' differential tests
 * rank over them, so they must not drift from the server.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../cli/helpers.js';
import { ROOT } from './corpus.js';

describe('real-server catalogs', () => {
  it('server-everything: the committed catalog is a fresh import of the pinned server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-servers-'));
    try {
      const out = join(dir, 'everything.yaml');
      const r = await run([
        'import',
        '--mcp',
        'node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio',
        '--name',
        'everything',
        '-o',
        out,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(
        readFileSync(join(ROOT, 'fixtures/catalogs/servers/everything.yaml'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
