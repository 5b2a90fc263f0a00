/**
 * The demo catalog in every catalog format (written by
 * test/tools/gen-catalog-formats.mjs from fixtures/catalogs/demo.yaml) loads
 * to the same tools. When demo.yaml changes, run
 * `node test/tools/gen-catalog-formats.mjs` again.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import type { CatalogFormat, CatalogTool } from '../../src/formats/types.js';

const catalog = (name: string): string => fileURLToPath(new URL(`../../fixtures/catalogs/${name}`, import.meta.url));

const view = (tools: readonly CatalogTool[], keepStatic: boolean): unknown[] =>
  tools.map((t) => ({ name: t.name, description: t.description, static: keepStatic ? t.static : false, parameters: t.parameters }));

describe('demo catalog in every format', () => {
  const demo = loadCatalogFiles([catalog('demo.yaml')]);

  it('demo.yaml is a real catalog: 100+ tools, some static', () => {
    expect(demo.tools.length).toBeGreaterThanOrEqual(100);
    expect(demo.tools.some((t) => t.static)).toBe(true);
    expect(demo.tools.some((t) => !t.static)).toBe(true);
  });

  // MCP and Eino have no notion of static tools: every tool of those files is dynamic.
  const files: ReadonlyArray<readonly [string, CatalogFormat, boolean]> = [
    ['demo.openai.json', 'openai', true],
    ['demo.openai-responses.json', 'openai', true],
    ['demo.anthropic.json', 'anthropic', true],
    ['demo.mcp.json', 'mcp', false],
    ['demo.eino.json', 'eino', false],
  ];
  for (const [file, format, hasStatic] of files) {
    it(`${file} (${format}) has the same tools as demo.yaml${hasStatic ? '' : ', all dynamic'}`, () => {
      const c = loadCatalogFiles([catalog(file)]);
      expect(c.sources).toEqual([{ file: catalog(file), format }]);
      expect(view(c.tools, hasStatic)).toEqual(view(demo.tools, hasStatic));
      if (!hasStatic) expect(c.tools.every((t) => !t.static)).toBe(true);
    });
  }
});
