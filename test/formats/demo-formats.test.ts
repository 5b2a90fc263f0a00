/**
 * The demo catalog in every catalog format (written by
 * test/tools/gen-catalog-formats.mjs from fixtures/catalogs/demo.yaml) loads
 * to the same tools. When demo.yaml changes, run
 * `node test/tools/gen-catalog-formats.mjs` again.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../src/formats/transcript.js';
import type { CatalogFormat, CatalogTool } from '../../src/formats/types.js';
import { simulate, simulationTools } from '../../src/jobs/simulate/engine.js';

const catalog = (name: string): string => fileURLToPath(new URL(`../../fixtures/catalogs/${name}`, import.meta.url));

const view = (tools: readonly CatalogTool[], keepStatic: boolean): unknown[] =>
  tools.map((t) => ({
    name: t.name,
    description: t.description,
    static: keepStatic ? t.static : false,
    parameters: t.parameters,
  }));

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

describe('demo catalog in the formats without static tools (eino, mcp)', () => {
  // Eino ToolInfo lists and MCP tools/list results cannot mark a tool static:
  // demo.eino.json and demo.mcp.json load as 130 dynamic tools, where the
  // other formats give 125 dynamic + 5 static. --static restores the split.
  const STATIC = ['get_current_time', 'ask_user', 'read_todo_list', 'write_todo_list', 'think'];
  const transcript = (name: string) =>
    loadTranscriptFile(fileURLToPath(new URL(`../../fixtures/transcripts/${name}`, import.meta.url)));
  const split = (file: string, staticNames?: string[]) => {
    const t = simulationTools({
      transcript: transcript('keyword-search-then-call.json'),
      catalog: loadCatalogFiles([catalog(file)]),
      ...(staticNames ? { staticNames } : {}),
    });
    return [t.dynamicTools.length, t.staticTools.length];
  };

  it('demo.yaml and the formats that know static tools: 125 dynamic + 5 static', () => {
    for (const f of ['demo.yaml', 'demo.openai.json', 'demo.openai-responses.json', 'demo.anthropic.json'])
      expect(split(f), f).toEqual([125, 5]);
    expect(
      loadCatalogFiles([catalog('demo.yaml')])
        .tools.filter((t) => t.static)
        .map((t) => t.name),
    ).toEqual(STATIC);
  });

  for (const f of ['demo.eino.json', 'demo.mcp.json']) {
    it(`${f}: 130 dynamic tools; with --static ${STATIC.join(',')} the same turns as demo.yaml`, () => {
      expect(split(f)).toEqual([130, 0]);
      expect(split(f, STATIC)).toEqual([125, 5]);
      for (const name of [
        'keyword-search-then-call.json',
        'deferred-tool-called-too-early.json',
        'select-search.json',
      ]) {
        for (const mode of ['default', 'native'] as const) {
          const want = simulate({
            transcript: transcript(name),
            catalog: loadCatalogFiles([catalog('demo.yaml')]),
            mode,
            replay: false,
          });
          const got = simulate({
            transcript: transcript(name),
            catalog: loadCatalogFiles([catalog(f)]),
            mode,
            staticNames: STATIC,
            replay: false,
          });
          expect(got.catalog).toEqual({ ...want.catalog, source: catalog(f) });
          expect([got.turns, got.violations, got.summary], `${name} (${mode})`).toEqual([
            want.turns,
            want.violations,
            want.summary,
          ]);
        }
      }
    });
  }

  it('without --static the turns differ: the 5 static tools are hidden until searched', () => {
    const t = transcript('deferred-tool-called-too-early.json');
    const got = simulate({
      transcript: t,
      catalog: loadCatalogFiles([catalog('demo.eino.json')]),
      mode: 'default',
      replay: false,
    });
    expect(got.turns[0]!.visible).toEqual(['tool_search']);
    expect(got.violations.map((v) => [v.kind, v.tool, v.call])).toEqual([
      ['not-loaded', 'get_current_time', 1],
      ['not-loaded', 'mcp__google_calendar__list_events', 2],
    ]);
  });
});
