import { render } from 'ink-testing-library';
import { test } from 'vitest';
import { simulationTools } from '../../src/simulate/engine.js';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { tokenAccountingForReport, withTokens } from '../../src/tokens/report.js';
import { Explore } from '../../src/tui/explore/Explore.js';
import { ToolIndex } from '../../src/core/scorer.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';
import { press, ready, wait, KEYS } from './harness.js';

const tools = simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG });
const inputs = stepperInputs(TRANSCRIPT, tools);
const show = (f: string | undefined) => console.log((f ?? '').split('\n').map((l) => JSON.stringify(l) + ',').join('\n'));

test('print', async () => {
  const r0 = report();
  const acc = await tokenAccountingForReport(r0, tools, { encoding: 'o200k_base', toolFormat: 'openai' });
  const rep = withTokens(r0, acc);
  {
    const r = render(<Stepper report={rep} inputs={inputs} resimulate={() => rep} size={{ columns: 50, rows: 12 }} />);
    await ready(r.stdin);
    for (const k of ['?', 'G', 'k', 'g']) {
    await press(r.stdin, k);
    await wait(50);
    show(r.lastFrame());
    }
    r.unmount();
  }
  for (const size of [{ columns: 80, rows: 24 }, { columns: 60, rows: 12 }]) {
    const r = render(<Explore index={new ToolIndex(CATALOG.tools.filter((t) => !t.static))} loadBaseline={() => Promise.reject(new Error('x'))} catalogArgs={[]} source="catalog.yaml" onCopy={() => {}} size={size} />);
    await ready(r.stdin);
    await press(r.stdin, ...'slack', '\t', '?');
    await wait(50);
    show(r.lastFrame());
    if (size.rows === 12) {
      await press(r.stdin, KEYS.pageDown);
      await wait(50);
      show(r.lastFrame());
      await press(r.stdin, 'G');
      await wait(50);
      show(r.lastFrame());
    }
    r.unmount();
  }
});
