import { render } from 'ink-testing-library';
import { test } from 'vitest';
import { simulationTools } from '../../src/simulate/engine.js';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { tokenAccountingForReport, withTokens } from '../../src/tokens/report.js';
import { Explore } from '../../src/tui/explore/Explore.js';
import { ToolIndex } from '../../src/core/scorer.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';
import { press, ready, wait } from './harness.js';

const tools = simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG });
const inputs = stepperInputs(TRANSCRIPT, tools);

test('print', async () => {
  const r0 = report();
  const acc = await tokenAccountingForReport(r0, tools, { encoding: 'o200k_base', toolFormat: 'openai' });
  const rep = withTokens(r0, acc);
  for (const size of [{ columns: 80, rows: 24 }, { columns: 40, rows: 10 }]) {
    const r = render(<Stepper report={rep} inputs={inputs} resimulate={() => rep} size={size} />);
    await ready(r.stdin);
    console.log(r.lastFrame());
    await press(r.stdin, '?');
    await wait(50);
    console.log(r.lastFrame());
    r.unmount();
  }
  for (const size of [{ columns: 80, rows: 24 }, { columns: 40, rows: 10 }, { columns: 30, rows: 8 }]) {
    const r = render(<Explore index={new ToolIndex(CATALOG.tools.filter((t) => !t.static))} loadBaseline={() => Promise.reject(new Error('x'))} catalogArgs={[]} source="c.yaml" onCopy={() => {}} size={size} />);
    await ready(r.stdin);
    await press(r.stdin, 'x', '\t', '?');
    await wait(50);
    console.log(r.lastFrame());
    r.unmount();
  }
});
