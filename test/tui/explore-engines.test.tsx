/**
 * Explore with engines: `e` shows the AI SDK 7's, then Mastra's, then a module's ranking beside the
 * reference, each from its real port (a module from its worker), with rank differences marked; then none.
 */
import { render } from 'ink-testing-library';
import { describe, expect, test, vi } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { exploreEngines } from '../../src/cli/explore-engines.js';
import { Explore } from '../../src/tui/explore/Explore.js';
import { CATALOG } from './fixture.js';
import { eventually, KEYS, press, ready } from './harness.js';

const TOOLS = CATALOG.tools.filter((t) => !t.static);
// Relative to the repository, where the tests run (as a user gives it on the command line).
const MODULE = 'fixtures/engines/bm25-fields.mjs';

function lineWith(frame: string, text: string): string {
  return frame.split('\n').find((l) => l.includes(text)) ?? `(no line with ${text})`;
}

async function mount(flags: Parameters<typeof exploreEngines>[0] = {}) {
  const engines = exploreEngines(flags, TOOLS);
  const load = vi.fn(engines.load);
  const r = render(
    <Explore
      index={new ToolIndex(TOOLS)}
      loadBaseline={() => Promise.resolve(() => [])}
      engines={engines.names}
      loadEngine={load}
      {...(engines.initial !== undefined ? { initialCompare: engines.initial } : {})}
      catalogArgs={['-c', 'catalog.yaml']}
      source="catalog.yaml"
      onCopy={() => {}}
      size={{ columns: 100, rows: 24 }}
    />,
  );
  await ready(r.stdin);
  return { ...r, load, close: engines.close, frame: () => r.lastFrame() ?? '' };
}

describe('explore engines', () => {
  test('e cycles the engines beside the reference: ai-sdk, mastra, then none', async () => {
    const { stdin, frame, load, unmount } = await mount();
    await press(stdin, ...'slack message', KEYS.tab, 'e');
    await eventually(() => expect(frame()).toContain('max_results 5 · ai-sdk on'));
    await eventually(() => expect(frame()).toContain('ai-sdk engine · Δ vs reference'));
    // The AI SDK: post_message has "message" in its name (2) and "Slack"/"message" in its description.
    expect(lineWith(frame(), '1 slack__post_message')).toMatch(
      /1 slack__post_message +20 a1 +│ 1 slack__post_message +=/,
    );
    await press(stdin, 'e');
    await eventually(() => expect(frame()).toContain('max_results 5 · mastra on'));
    await eventually(() => expect(frame()).toContain('mastra engine · Δ vs reference'));
    expect(lineWith(frame(), '1 slack__post_message')).toMatch(/ m1 +│ 1 slack__post_message +=/);
    await press(stdin, 'e');
    await eventually(() => expect(frame()).not.toContain('engine · Δ vs reference'));
    expect(frame()).toContain('max_results 5 · fuse off');
    // Back to the AI SDK: built once.
    await press(stdin, 'e');
    await eventually(() => expect(frame()).toContain('ai-sdk engine'));
    expect(load.mock.calls.map((c) => c[0])).toEqual(['ai-sdk', 'mastra']);
    // f switches the column to the fuse.js baseline.
    await press(stdin, 'f');
    await eventually(() => expect(frame()).toContain('fuse.js baseline'));
    unmount();
  });

  test('--engine starts with a module beside the reference, answered from its worker', async () => {
    const { stdin, frame, unmount, close } = await mount({ engine: { kind: 'module', path: MODULE } });
    try {
      await press(stdin, ...'notion', KEYS.tab);
      await eventually(() => expect(frame()).toContain('fixtures/engines/bm25-fields.mjs on'));
      await eventually(() => expect(frame()).toContain('fixtures/engines/bm25-fields.mjs engine · Δ vs'));
      await eventually(() => expect(lineWith(frame(), 'notion__search')).toMatch(/│ 1 notion__search +=/));
    } finally {
      unmount();
      await close();
    }
  });

  test('refuses eino as the engine to compare (the reference is the main ranking)', () => {
    expect(() => exploreEngines({ engine: { kind: 'builtin', id: 'eino' } }, TOOLS)).toThrow(
      '--engine eino: the reference is what explore ranks; name ai-sdk, mastra or a module to compare',
    );
  });
});
