/**
 * `watch --engine`, its parameters, --mode, -c: what they mean in simulate. The session's engine is chosen
 * as simulate chooses it (the flag, else the recording's search tool), its parameters checked per session.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulationReport } from '../../../src/jobs/simulate/report.js';
import { DEMO, run } from '../helpers.js';
import { startWatch, type Watching } from './helpers.js';

const FIXTURE = 'fixtures/transcripts/keyword-search-then-call.otel.json';
const validate = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(new URL('../../../src/schemas/watch-jsonl.schema.json', import.meta.url), 'utf8')) as object,
);
const fixtureText = readFileSync(FIXTURE, 'utf8');

let watching: Watching | null = null;
afterEach(async () => {
  if (watching && watching.child.exitCode === null) await watching.stop();
  watching = null;
});

async function post(url: string): Promise<void> {
  const res = await fetch(`${url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: fixtureText,
  });
  expect(res.status).toBe(200);
}

describe('watch --engine, --mode, -c as in simulate', () => {
  for (const args of [
    ['--engine', 'mastra', '--top-k', '2'],
    ['--engine', 'ai-sdk', '-n', '1'],
    ['--mode', 'native'],
  ]) {
    it(`${args.join(' ')}: each call's turn and violations are simulate's`, async () => {
      const r = await run(['simulate', FIXTURE, '-c', DEMO, '--json', '--no-tokens', ...args]);
      expect(r.code).toBe(0);
      const expected = JSON.parse(r.stdout) as SimulationReport;
      watching = await startWatch(['--jsonl', '-c', DEMO, ...args]);
      await post(watching.url);
      const lines = await watching.waitLines(expected.turns.length);
      expect(lines.map((l) => l.turn)).toEqual(expected.turns);
      expect(lines.flatMap((l) => l.violations)).toEqual(expected.violations);
      // --engine against the recording's own search tool: simulate's warning, once for the session.
      const warnings = lines.flatMap((l) => (l.warning !== undefined ? [l.warning] : []));
      if (args[0] === '--engine') {
        expect(warnings).toEqual([
          `--engine ${args[1]}, but the recording looks like eino: the result of tool_search is ` +
            '{"matches": [...]} (Eino\'s tool_search)',
        ]);
        expect(r.stderr).toContain(warnings[0]);
      } else expect(warnings).toEqual([]);
      for (const l of lines) expect(validate(l), JSON.stringify(validate.errors)).toBe(true);
      expect((await watching.stop()).code).toBe(0);
    });
  }

  it("a parameter of another engine than the session's: the session says why, as simulate refuses it", async () => {
    const r = await run(['simulate', FIXTURE, '-c', DEMO, '--top-k', '2']);
    expect(r.code).toBe(2);
    watching = await startWatch(['--jsonl', '-c', DEMO, '--top-k', '2']);
    await post(watching.url);
    const [line] = await watching.waitLines(1);
    expect(line).toEqual({
      schema_version: line!.schema_version,
      source: 'otlp',
      session: 's1',
      trace_id: JSON.parse(fixtureText).resourceSpans[0].scopeSpans[0].spans[0].traceId,
      call: null,
      turn: null,
      violations: [],
      error: "--top-k is not a parameter of the eino engine (it is Mastra's search.topK: --engine mastra)",
    });
    expect(r.stderr).toContain("--top-k is not a parameter of the eino engine (it is Mastra's search.topK");
  });

  it('usage errors are simulate’s, before anything listens (exit 2)', async () => {
    const native = await run(['watch', '--engine', 'ai-sdk', '--mode', 'native', '--port', '0']);
    expect(native.code).toBe(2);
    expect(native.stderr).toContain(
      "--mode native is the reference's model-native mode; the ai-sdk engine has no modes",
    );
    const module = await run(['watch', '--engine', './x.js', '--port', '0']);
    expect(module.code).toBe(2);
    expect(module.stderr).toContain('--engine ./x.js: a module engine ranks only');
    const wrong = await run(['watch', '--engine', 'ai-sdk', '--top-k', '2', '--port', '0']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--top-k is not a parameter of the ai-sdk engine');
  });
});
