/**
 * Issue 27, finding 2 and its rule: every reader takes time linear in its input, minified or not. Each input here
 * is one line (a minified file), with a located item (a tool's position, an unknown key's warning, a message of a
 * transcript) every few dozen bytes: a reader that recounts a column from the line's start, or rescans what it has
 * read, is quadratic on it. Each is read at n and 4n items (best of three runs); 4n must take less than 10 times
 * n (linear is 4, quadratic 16) and a few seconds at most. Before, a minified catalog of 10,000 tools with an
 * unknown key each took 16 s, an Anthropic body of 1.9 MB with unknown keys under --lenient 40 s, and deciding
 * whether a one-line .jsonl holds sessions rescanned all it had read at every 64 KiB.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogText, loadRecordingText, parseText } from '../../src/formats/index.js';
import { readClientConfig } from '../../src/formats/mcp/client-config.js';
import { readsAsSessions } from '../../src/formats/sessions.js';
import { loadSuite } from '../../src/jobs/suite/run.js';
import { DEMO, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-linear-');
afterAll(() => tmp.cleanup());

/**
 * CPU seconds `read` takes on the n input and on the 4n one, each the best of three runs taken in turn. CPU time, not
 * wall time: on a loaded machine (the suite runs three test processes on two cores) the wall clock also counts the
 * time spent waiting for a core, which is noise here; the best of three drops a run slowed by a collection.
 */
function seconds<T>(small: T, large: T, read: (x: T) => unknown): [number, number] {
  const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let i = 0; i < 3; i++) {
    [small, large].forEach((input, k) => {
      const start = process.cpuUsage();
      read(input);
      const used = process.cpuUsage(start);
      best[k] = Math.min(best[k]!, (used.user + used.system) / 1e6);
    });
  }
  return [best[0]!, best[1]!];
}

/** 4n takes less than 10 times n (linear is 4, quadratic 16; a garbage collector's share grows a little with size). */
function expectLinear<T>(make: (n: number) => T, read: (x: T) => unknown, n: number, most = 10): void {
  const [small, large] = seconds(make(n), make(4 * n), read);
  expect(large, `n: ${small.toFixed(3)} s, 4n: ${large.toFixed(3)} s`).toBeLessThan(Math.max(10 * small, 0.3));
  expect(large).toBeLessThan(most);
}

const tools = (n: number, tool: (i: number) => unknown) => Array.from({ length: n }, (_, i) => tool(i));

describe('finding 2: one-line inputs are read in linear time', () => {
  it('a catalog of ours with an unknown key per tool (a shape warning each)', () => {
    expectLinear(
      (n) =>
        JSON.stringify({
          tools: tools(n, (i) => ({ name: `t${i}`, description: `does ${i} é😀`, parameters: {}, bogus: i })),
        }),
      (text) => {
        const c = loadCatalogText(text, { name: 'c.json' });
        expect(c.shapeWarnings).toHaveLength(c.tools.length);
      },
      5000,
    );
  });

  it.each([
    ['openai', (i: number) => ({ type: 'function', function: { name: `t${i}`, description: 'é😀', parameters: {} } })],
    ['anthropic', (i: number) => ({ name: `t${i}`, description: 'é😀', input_schema: {}, defer_loading: i % 2 === 0 })],
    ['mcp', (i: number) => ({ name: `t${i}`, description: 'é😀', inputSchema: {} })],
    ['eino', (i: number) => ({ name: `t${i}`, desc: 'é😀', params: {} })],
  ])('a %s catalog (every tool located)', (_f, tool) => {
    expectLinear(
      (n) => JSON.stringify(tools(n, tool)),
      (text) => loadCatalogText(text, { name: 'c.json' }),
      5000,
    );
  });

  it('a YAML catalog written as one flow line, with an unknown key per tool', () => {
    expectLinear(
      (n) => `{tools: [${tools(n, (i) => `{name: t${i}, description: "é😀 ${i}", bogus: ${i}}`).join(', ')}]}`,
      (text) => loadCatalogText(text, { name: 'c.yaml' }),
      3000,
    );
  });

  it('an Anthropic request body with unknown block keys, read with --lenient (a located problem per block)', () => {
    expectLinear(
      (n) => {
        const messages: unknown[] = [{ role: 'user', content: 'hi' }];
        for (let i = 0; i < n; i++) {
          messages.push({
            role: 'assistant',
            content: [{ type: 'tool_use', id: `c${i}`, name: 'a', input: {}, x: i }],
          });
          messages.push({
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `c${i}`, content: 'ok', y: i }],
          });
        }
        return JSON.stringify({ model: 'm', system: 's', max_tokens: 1, messages });
      },
      (text) => {
        const t = loadRecordingText(text, { name: 'b.json', lenient: true });
        expect(t.coverage?.unexplained.length).toBeGreaterThan(0);
      },
      2500,
    );
  });

  it.each([
    [
      'OpenAI messages',
      (i: number) => [
        { role: 'user', content: `q${i} é😀` },
        { role: 'assistant', content: 'a' },
      ],
    ],
    [
      'Responses items',
      (i: number) => [
        { type: 'message', role: 'user', content: `q${i}` },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
      ],
    ],
    [
      'AI SDK messages',
      (i: number) => [
        { role: 'user', content: [{ type: 'text', text: `q${i}` }] },
        { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      ],
    ],
  ])('a transcript of %s on one line (every message located)', (_f, pair) => {
    expectLinear(
      (n) => JSON.stringify(Array.from({ length: n }, (_, i) => pair(i)).flat()),
      (text) => loadRecordingText(text, { name: 't.json' }),
      3000,
    );
  });

  it('a suite of many cases on one line (every case located)', () => {
    expectLinear(
      (n) => {
        const file = join(tmp.dir, `suite-${n}.json`);
        const cases = tools(n, (i) => ({
          name: `c${i} é😀`,
          query: 'slack send',
          includes: ['mcp__slack__send_message'],
        }));
        writeFileSync(file, JSON.stringify({ catalog: DEMO, cases }));
        return file;
      },
      (file) => loadSuite(file),
      3000,
    );
  });

  it('an MCP client config with an unknown key per server (a located warning each)', () => {
    expectLinear(
      (n) => {
        const servers = Object.fromEntries(
          tools(n, (i) => [`s${i}`, { command: 'x', args: ['é😀'], bogus: i }]) as Array<[string, unknown]>,
        );
        return parseText('c.json', JSON.stringify({ mcpServers: servers }));
      },
      (doc) => {
        const c = readClientConfig(doc, {});
        expect(c?.warnings.length).toBe(c?.servers.length);
      },
      3000,
    );
  });

  it('deciding whether a one-line .jsonl holds sessions', () => {
    expectLinear(
      (n) => {
        const file = join(tmp.dir, `one-line-${n}.jsonl`);
        writeFileSync(file, JSON.stringify(tools(n, (i) => ({ role: 'user', content: `m${i} é😀` }))));
        return file;
      },
      (file) => expect(readsAsSessions(file, 'auto')).toBe(true),
      100_000,
    );
  });
});
