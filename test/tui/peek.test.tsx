import { render } from 'ink-testing-library';
import { test } from 'vitest';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { simulationTools } from '../../src/simulate/engine.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';

test('peek', async () => {
  const tools = simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG });
  const inputs = stepperInputs(TRANSCRIPT, tools);
  const r = render(<Stepper report={report()} inputs={inputs} resimulate={(m, rp) => report(m, rp)} size={{ columns: 80, rows: 24 }} />);
  console.log(r.lastFrame());
  for (const k of ['j', '\t', 'j', '\r']) { r.stdin.write(k); await new Promise((res) => setTimeout(res, 20)); }
  console.log(r.lastFrame());
  r.stdin.write('\x1b'); await new Promise((res) => setTimeout(res, 50));
  for (const k of ['j', 'r']) { r.stdin.write(k); await new Promise((res) => setTimeout(res, 50)); }
  console.log(r.lastFrame());
  r.stdin.write('m'); await new Promise((res) => setTimeout(res, 50));
  console.log(r.lastFrame());
});
