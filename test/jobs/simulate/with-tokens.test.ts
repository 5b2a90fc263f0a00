import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { simulate, simulationTools } from '../../../src/jobs/simulate/engine.js';
import { simulateWithTokens, simulator } from '../../../src/jobs/simulate/with-tokens.js';
import { tokenAccountingForReport, withTokens } from '../../../src/jobs/tokens/report.js';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const dir = fileURLToPath(new URL('../../../fixtures/transcripts/', import.meta.url));

/** What the CLI and the TUI each wrote before: simulate, simulate the other mode, count tokens. */
async function byHand(file: string, mode: 'default' | 'native', replay: boolean) {
  const options = { transcript: loadTranscriptFile(`${dir}${file}`), catalog: demo, mode, replay };
  const report = simulate(options);
  const other = simulate({ ...options, mode: mode === 'default' ? 'native' : 'default', replay: false });
  const tokens = await tokenAccountingForReport(report, simulationTools(options), {
    encoding: 'o200k_base',
    toolFormat: 'openai',
    otherMode: other,
  });
  return withTokens(report, tokens);
}

describe('simulateWithTokens', () => {
  const tokens = { encoding: 'o200k_base', toolFormat: 'openai' } as const;
  for (const file of [
    'deferred-tool-called-too-early.json',
    'accumulate-two-searches.anthropic.json',
    'native-server-search.anthropic.json',
  ]) {
    for (const mode of ['default', 'native'] as const) {
      it(`${file}, ${mode}: the report the CLI and TUI built by hand`, async () => {
        const options = { transcript: loadTranscriptFile(`${dir}${file}`), catalog: demo, mode, replay: true };
        expect(await simulateWithTokens(options, tokens)).toEqual(await byHand(file, mode, true));
      });
    }
  }

  it('null tokens: exactly simulate()', async () => {
    const options = {
      transcript: loadTranscriptFile(`${dir}redundant-select.json`),
      catalog: demo,
      mode: 'default' as const,
      replay: false,
    };
    const report = await simulateWithTokens(options, null);
    expect(report).toEqual(simulate(options));
    expect(report.summary.tokens).toBeUndefined();
  });

  it('the simulator switches mode and replay with the token counts of the mode', async () => {
    const transcript = loadTranscriptFile(`${dir}keyword-search-then-call.json`);
    const run = simulator({ transcript, catalog: demo }, tokens);
    expect(await run('native', false)).toEqual(await byHand('keyword-search-then-call.json', 'native', false));
    expect(await run('default', true)).toEqual(await byHand('keyword-search-then-call.json', 'default', true));
    expect(await run('native', true)).toEqual(await byHand('keyword-search-then-call.json', 'native', true));
  });
});
