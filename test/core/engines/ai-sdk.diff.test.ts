/**
 * The AI SDK 7 port against the real package (`ai-v7` = `ai@7.0.173`, a
 * devDependency): every search runs through the package's own path — a
 * `generateText` whose mock model calls the `toolSearch()` tool — and the
 * port must return the same result object (names, order, descriptions) every
 * time; over many steps and generations, the tools our simulation makes
 * visible must be the tools the package sent to the model at each step.
 *
 * The package needs Node >= 22: on Node 20 the tests are skipped (and say so).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createAiSdkEngine } from '../../../src/core/engines/ai-sdk.js';
import type { EngineTool } from '../../../src/core/engines/types.js';
import { AiSdkDiscovery } from '../../../src/core/engines/visibility.js';
import {
  fixtureCatalogs,
  fixtureQueries,
  nodeAtLeast,
  RANDOM_QUERIES,
  Random,
  randomCatalog,
  randomQuery,
  rng,
  SEED,
} from './corpus.js';

const SUPPORTED = nodeAtLeast(22);
if (!SUPPORTED) {
  console.log(
    `skipped: the AI SDK 7 differential tests need Node >= 22 (ai@7 requires it); this is ${process.version}`,
  );
}

type Ai = typeof import('ai-v7');
type AiTest = typeof import('ai-v7/test');
let ai: Ai;
let aiTest: AiTest;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const SEARCH = 'tool search ∅';

function toolCall(id: string, toolName: string, input: unknown) {
  return { type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) };
}

/** The package's tools object: the catalog's tools deferred, the search tool, and static tools. */
function toolsObject(deferred: readonly EngineTool[], maxResults: number | undefined, statics: readonly string[] = []) {
  const entries: Array<[string, unknown]> = [];
  for (const s of statics)
    entries.push([
      s,
      ai.tool({
        description: `static ${s}`,
        inputSchema: ai.jsonSchema({ type: 'object' }),
        execute: async () => 'ok',
      }),
    ]);
  entries.push([SEARCH, ai.toolSearch(maxResults === undefined ? {} : { maxResults })]);
  for (const t of deferred)
    entries.push([
      t.name,
      ai.tool({
        description: t.description,
        inputSchema: ai.jsonSchema({ type: 'object' }),
        deferLoading: true,
        execute: async () => 'ok',
      }),
    ]);
  return {
    order: entries.map(([n]) => n),
    tools: Object.fromEntries(entries) as Parameters<Ai['generateText']>[0]['tools'],
  };
}

/** What the package's search returns for each query: steps of parallel search calls, 40 queries per generation. */
async function realSearches(
  tools: readonly EngineTool[],
  queries: readonly string[],
  maxResults?: number,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < queries.length; i += 40)
    out.push(...(await realChunk(tools, queries.slice(i, i + 40), maxResults)));
  return out;
}

async function realChunk(
  tools: readonly EngineTool[],
  queries: readonly string[],
  maxResults?: number,
): Promise<unknown[]> {
  const model = new aiTest.MockLanguageModelV4({
    doGenerate: [
      {
        content: queries.map((query, i) => toolCall(`c${i}`, SEARCH, { query })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
  const r = await ai.generateText({ model, tools: toolsObject(tools, maxResults).tools, prompt: 'find tools' });
  const byId = new Map<string, unknown>();
  for (const part of r.steps[0]!.content) {
    if (part.type === 'tool-result') byId.set(part.toolCallId, part.output);
    if (part.type === 'tool-error') byId.set(part.toolCallId, { error: String(part.error) });
  }
  return queries.map((_, i) => byId.get(`c${i}`));
}

function portSearches(tools: readonly EngineTool[], queries: readonly string[], maxResults?: number): unknown[] {
  const engine = createAiSdkEngine(tools, maxResults === undefined ? {} : { maxResults });
  return queries.map((q) => {
    const out = engine.search(q);
    return out.ok ? out.result : { error: out.error };
  });
}

describe.skipIf(!SUPPORTED)('the AI SDK 7 port against ai@7.0.173', () => {
  beforeAll(async () => {
    ai = await import('ai-v7');
    aiTest = await import('ai-v7/test');
  });

  it('ranks like the package on every bundled catalog (labeled queries, words of the catalog)', async () => {
    const r = new Random(rng(SEED));
    const catalogs = fixtureCatalogs();
    expect(catalogs.map((c) => c.file)).toContain('fixtures/catalogs/demo.yaml');
    let compared = 0;
    for (const { file, tools } of catalogs) {
      const queries = fixtureQueries(tools, r, tools.length > 20 ? 300 : 150);
      for (const maxResults of [undefined, 1, 12]) {
        const real = await realSearches(tools, queries, maxResults);
        const port = portSearches(tools, queries, maxResults);
        for (let i = 0; i < queries.length; i++) {
          expect(port[i], `${file} · maxResults ${maxResults} · ${JSON.stringify(queries[i])}`).toEqual(real[i]);
        }
        compared += queries.length;
      }
    }
    console.log(
      `ai-sdk (${process.version}): ${compared} searches over ${catalogs.length} bundled catalogs, all equal`,
    );
    expect(compared).toBeGreaterThan(1000);
  }, 300_000);

  it(`ranks like the package on random catalogs and ${RANDOM_QUERIES} random queries (seed ${SEED})`, async () => {
    const r = new Random(rng(SEED + 1));
    let compared = 0;
    let nonEmpty = 0;
    while (compared < RANDOM_QUERIES) {
      const tools = randomCatalog(r);
      const maxResults = r.chance(0.5) ? undefined : 1 + r.int(8);
      const queries = Array.from({ length: 25 }, () => randomQuery(r, tools));
      if (r.chance(0.1)) queries.push('', '   ', '!!!', 'a');
      const real = await realSearches(tools, queries, maxResults);
      const port = portSearches(tools, queries, maxResults);
      for (let i = 0; i < queries.length; i++) {
        const where =
          `seed ${SEED + 1} · query ${JSON.stringify(queries[i])} · maxResults ${maxResults} · ` +
          `catalog ${JSON.stringify(tools)}`;
        expect(port[i], where).toEqual(real[i]);
        if ((real[i] as { tools?: unknown[] }).tools?.length) nonEmpty++;
      }
      compared += queries.length;
    }
    console.log(`ai-sdk (${process.version}): ${compared} random queries (${nonEmpty} with results), all equal`);
    // The corpus must exercise the ranking, not only empty results.
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  }, 300_000);

  it('makes visible, step by step and generation by generation, what the package sends to the model', async () => {
    const r = new Random(rng(SEED + 2));
    let stepsChecked = 0;
    for (let run = 0; run < 60; run++) {
      const tools = randomCatalog(r);
      const statics = r.chance(0.5) ? ['ask_user', '7'] : [];
      const { order, tools: object } = toolsObject(tools, undefined, statics);
      const deferred = new Set(tools.map((t) => t.name));
      const engine = createAiSdkEngine(tools);
      const sim = new AiSdkDiscovery(order, deferred);
      let messages: unknown[] = [{ role: 'user', content: 'hi' }];
      for (let generation = 0; generation < 3; generation++) {
        const steps = 1 + r.int(4);
        const expected: string[][] = [];
        const script = [];
        for (let s = 0; s < steps; s++) {
          expected.push(sim.visible());
          const queries = Array.from({ length: r.int(3) }, () => randomQuery(r, tools));
          const visibleDeferred = sim.visible().filter((n) => deferred.has(n));
          const calls = queries.map((query, i) => toolCall(`g${generation}s${s}q${i}`, SEARCH, { query }));
          if (visibleDeferred.length > 0 && r.chance(0.5))
            calls.push(toolCall(`g${generation}s${s}t`, r.pick(visibleDeferred), {}));
          script.push({
            content: calls.length > 0 ? calls : [{ type: 'text' as const, text: 'done' }],
            finishReason: { unified: calls.length > 0 ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
            usage,
            warnings: [],
          });
          for (const q of queries) {
            const out = engine.search(q);
            if (out.ok) sim.found(out.matches);
          }
          if (calls.length === 0) break;
        }
        const model = new aiTest.MockLanguageModelV4({ doGenerate: script });
        const result = await ai.generateText({
          model,
          tools: object,
          messages: messages as Parameters<Ai['generateText']>[0]['messages'] & object,
          stopWhen: ai.isStepCount(script.length),
        });
        const sent = model.doGenerateCalls.map((c) => (c.tools ?? []).map((t) => t.name));
        expect(sent, `run ${run} generation ${generation}`).toEqual(expected.slice(0, sent.length));
        stepsChecked += sent.length;
        // The next generation continues the conversation with the history; nothing stays discovered.
        messages = [...messages, ...result.response.messages, { role: 'user', content: 'again' }];
        sim.newGeneration();
      }
    }
    console.log(
      `ai-sdk (${process.version}): tools sent at ${stepsChecked} steps of 180 generations, all as simulated`,
    );
  });
});
