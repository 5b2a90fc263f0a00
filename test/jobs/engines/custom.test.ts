/**
 * A user's search module (`--engine ./my-search.js`): the fixture module's
 * rankings, and every way a module can be bad — no `search` export, a throw
 * while loading or searching, unknown names, a value that is not a list, a
 * thread that exits, a promise that never settles, an endless loop — each a
 * clear error naming the module, in bounded time.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CustomEngine } from '../../../src/jobs/engines/custom.js';
import { openEngine, parseEngineSpec } from '../../../src/jobs/engines/engine.js';
import { InputError, UsageError } from '../../../src/io/errors.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TOOLS = [
  { name: 'mcp__slack__send_message', description: 'Send a message to a Slack channel' },
  { name: 'mcp__slack__list_channels', description: 'List the channels of a Slack workspace' },
  { name: 'mcp__github__create_issue', description: 'Create a new issue in a GitHub repository' },
  { name: 'mcp__github__list_issues', description: 'List the issues of a repository' },
];

const open: CustomEngine[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

async function start(file: string, timeoutMs = 2000): Promise<CustomEngine> {
  // Loading may take longer on a loaded machine than the search timeout a test sets.
  const e = await CustomEngine.start(file, TOOLS, { cwd: ROOT, timeoutMs, loadTimeoutMs: 20_000 });
  open.push(e);
  return e;
}

async function failure(p: Promise<unknown>): Promise<InputError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

describe('--engine <module>', () => {
  it('reads built-in names and module paths, and refuses anything else', () => {
    expect(parseEngineSpec('mastra')).toEqual({ kind: 'builtin', id: 'mastra' });
    expect(parseEngineSpec('./x.mjs')).toEqual({ kind: 'module', path: './x.mjs' });
    expect(parseEngineSpec('search.js')).toEqual({ kind: 'module', path: 'search.js' });
    expect(() => parseEngineSpec('vercel')).toThrow(UsageError);
    expect(() => parseEngineSpec('vercel')).toThrow(
      'unknown engine "vercel": the engines are eino, ai-sdk, mastra, or a module path such as ./my-search.js',
    );
  });

  it('ranks with the fixture module (BM25 with field weights) through the contract', async () => {
    const e = await start('fixtures/engines/bm25-fields.mjs');
    const out = await e.search('list slack channels', 5);
    expect(out).toEqual({
      ok: true,
      matches: ['mcp__slack__list_channels', 'mcp__github__list_issues', 'mcp__slack__send_message'],
      scores: null,
      result: {
        tools: [
          { name: 'mcp__slack__list_channels', description: 'List the channels of a Slack workspace' },
          { name: 'mcp__github__list_issues', description: 'List the issues of a repository' },
          { name: 'mcp__slack__send_message', description: 'Send a message to a Slack channel' },
        ],
      },
      total: 3,
      limit: 5,
    });
    expect((await e.search('list slack channels', 1)).ok && (await e.search('github issue', 1))).toMatchObject({
      matches: ['mcp__github__create_issue'],
    });
  });

  it('keeps the first of repeated names and cuts the list to maxResults, as the AI SDK does', async () => {
    const e = await start('test/jobs/engines/fixtures/duplicates.mjs');
    const out = await e.search('anything', 3);
    expect(out.ok && out.matches).toEqual([
      'mcp__slack__list_channels',
      'mcp__slack__send_message',
      'mcp__github__create_issue',
    ]);
  });

  it('is the same through openEngine, which also runs the built-in engines', async () => {
    const engine = await openEngine(parseEngineSpec('fixtures/engines/bm25-fields.mjs'), TOOLS, {}, { cwd: ROOT });
    try {
      expect(engine.name).toBe('fixtures/engines/bm25-fields.mjs');
      expect(engine.builtin).toBeNull();
      const out = await engine.search('create issue');
      expect(out.ok && out.matches[0]).toBe('mcp__github__create_issue');
    } finally {
      await engine.close();
    }
    const ai = await openEngine(parseEngineSpec('ai-sdk'), TOOLS, { maxResults: 2 });
    expect(await ai.search('list')).toMatchObject({
      matches: ['mcp__slack__list_channels', 'mcp__github__list_issues'],
    });
  });

  it('refuses a module without a search export, one that fails to load, and a missing file', async () => {
    expect((await failure(start('test/jobs/engines/fixtures/no-export.mjs'))).headline).toBe(
      'test/jobs/engines/fixtures/no-export.mjs: --engine: the module does not export a function "search" ' +
        '(it exports "rank"); write: export function search({ query, tools, maxResults }) { return [...names] }',
    );
    expect((await failure(start('test/jobs/engines/fixtures/load-throws.mjs'))).headline).toBe(
      'test/jobs/engines/fixtures/load-throws.mjs: --engine: cannot load the module: ' +
        'Error: this module fails as it loads',
    );
    expect((await failure(start('test/jobs/engines/fixtures/nope.mjs'))).headline).toMatch(
      /^test\/jobs\/engines\/fixtures\/nope\.mjs: --engine: no such module file \(".*nope\.mjs"\)$/,
    );
  });

  it('reports a throw, unknown names, not a list, a thread that exits, with the query', async () => {
    const thrown = await failure((await start('test/jobs/engines/fixtures/throws.mjs')).search('send it', 5));
    expect(thrown.headline).toBe(
      'test/jobs/engines/fixtures/throws.mjs: --engine: search threw TypeError: ' +
        'cannot rank 7 characters (query "send it")',
    );
    const unknown = await failure((await start('test/jobs/engines/fixtures/unknown-names.mjs')).search('x', 5));
    expect(unknown.message).toBe(
      '--engine: search returned "mcp__nowhere__made_up", which is not a tool of the catalog (query "x"); ' +
        'return the names of the tools it was given',
    );
    const object = await failure((await start('test/jobs/engines/fixtures/not-a-list.mjs')).search('x', 5));
    expect(object.message).toBe('--engine: search returned an object, not a list of tool names (query "x")');
    const exits = await failure((await start('test/jobs/engines/fixtures/exits.mjs')).search('x', 5));
    expect(exits.message).toBe('--engine: the module ended its thread (exit code 3)');
  });

  it('gives up on a search that never answers (a pending promise, an endless loop) after the timeout', async () => {
    for (const file of ['hangs.mjs', 'busy-loop.mjs']) {
      const e = await start(`test/jobs/engines/fixtures/${file}`, 300);
      const t0 = Date.now();
      const err = await failure(e.search('slow', 5));
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(err.message).toBe(
        '--engine: search did not answer within 300 ms (query "slow"); --engine-timeout sets the limit',
      );
      // The engine is unusable afterwards: every later search fails at once with the same error.
      expect((await failure(e.search('again', 5))).message).toBe(err.message);
    }
  });
});
