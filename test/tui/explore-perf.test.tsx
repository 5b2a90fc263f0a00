/**
 * Responsiveness of explore on a 5,000-tool catalog: the time from a key
 * press to the frame that shows its result, through the real path (Ink not
 * in debug mode, 60 fps throttle, the alternate-screen runner), with a fake
 * terminal. Prints the figures and asserts no timing (speed is measured, never
 * asserted in tests): only that every keystroke landed and the last frame is
 * right. The README figure comes from:
 *   NODE_ENV=production npx vitest run --config test/vitest.config.ts test/tui/explore-perf.test.tsx
 * (React's production build, as the CLI loads it).
 */
import { expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/scorer.js';
import { Explore } from '../../src/tui/explore/Explore.js';
import { exploreSearch, warmUpSearch } from '../../src/tui/explore/search.js';
import { runFullScreen } from '../../src/tui/fullscreen.js';
import { asTerminal, fakeIo, KEYS, plain, ready, wait } from './harness.js';
import { syntheticCatalog } from './perf/catalog.js';

const TOOLS = syntheticCatalog(5000);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

test('explore on 5,000 tools: every keystroke lands and is drawn (prints the latency figures)', async () => {
  const index = new ToolIndex(TOOLS);
  // The search alone, for reference.
  const tBuild = performance.now();
  warmUpSearch(index); // as runExplore does before the screen appears
  const firstQueryMs = performance.now() - tBuild;

  const io = fakeIo(80, 24);
  const props = { index, loadBaseline: () => Promise.reject(new Error('unused')), catalogArgs: [], source: 'synthetic', onCopy: () => {} };
  const done = runFullScreen(
    <Explore {...props} />,
    asTerminal(io),
    { patchConsole: false },
  );
  await ready(io.stdin);
  const shortest = TOOLS.reduce((a, b) => (b.name.length < a.name.length ? b : a)).name;
  // Typing, deleting, a required keyword, clearing, a select: query.
  const keys = [...'create github issue', ...Array(6).fill(KEYS.backspace), ...' +slack', KEYS.ctrlU, ...`select:${shortest}`];
  const wall: number[] = [];
  const cpu: number[] = [];
  const missed: string[] = [];
  for (const k of keys) {
    // Timed at the first write after the key (no polling: a busy wait would count as CPU).
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    const frame = new Promise<{ at: number; cpu: NodeJS.CpuUsage } | null>((resolve) => {
      const onWrite = (): void => {
        clearTimeout(timer);
        resolve({ at: performance.now(), cpu: process.cpuUsage(c0) });
      };
      const timer = setTimeout(() => {
        io.stdout.off('write', onWrite);
        resolve(null);
      }, 1000);
      io.stdout.once('write', onWrite);
    });
    io.stdin.write(k);
    const f = await frame;
    if (f === null) {
      // No new frame: the key changed nothing visible (a space only moves the cursor, which has no color here).
      missed.push(k);
      continue;
    }
    wall.push(f.at - w0);
    cpu.push((f.cpu.user + f.cpu.system) / 1000);
    await wait(40); // fast typing; keys further apart than Ink's 60 fps throttle window (17 ms)
  }
  io.stdin.write('\u0003');
  await done;

  // The search alone, for every query typed above (CPU time): what is left of a keystroke is React and Ink.
  const searchCpu: number[] = [];
  let q = '';
  for (const k of keys) {
    q = k === KEYS.backspace ? Array.from(q).slice(0, -1).join('') : k === KEYS.ctrlU ? '' : q + k;
    const c0 = process.cpuUsage();
    exploreSearch(index, q, 5);
    const c = process.cpuUsage(c0);
    searchCpu.push((c.user + c.system) / 1000);
  }

  const lastFrame = plain(io.stdout.writes.map((w) => w.data).join('')).split('toolsearch explore').at(-1) ?? '';
  const fmt = (xs: number[]): string => `median ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(
    `explore on ${TOOLS.length} tools, ${wall.length} keystrokes (React ${process.env.NODE_ENV === 'production' ? 'production' : 'development'} build):\n` +
      `  first key (cold code paths): ${wall[0]!.toFixed(1)} ms to the frame, ${cpu[0]!.toFixed(1)} ms CPU\n` +
      `  every later key → frame written: ${fmt(wall.slice(1))}\n` +
      `  every later key, CPU:            ${fmt(cpu.slice(1))}\n` +
      `  of which the search (CPU):       ${fmt(searchCpu.slice(1))} (warm-up before the screen appears: ${firstQueryMs.toFixed(0)} ms)`,
  );
  expect(lastFrame).toContain('select: 1 tool returned');
  expect(missed.filter((k) => k !== ' ' && k !== KEYS.backspace)).toEqual([]);
});
