/**
 * Responsiveness of explore on a 5,000-tool catalog: the time from a key
 * press to the frame that shows its result, through the real path (Ink not
 * in debug mode, 60 fps throttle, the alternate-screen runner), with a fake
 * terminal. Prints the figures and asserts no timing (speed is measured, never
 * asserted in tests): only that every keystroke landed and the last frame is
 * right. The README figure comes from:
 *   NODE_ENV=production npx vitest run --config test/vitest.config.ts test/tui/explore-perf.test.tsx
 * (React's production build, as the CLI loads it).
 *
 * The second test does the same with the fuse.js column on: the reference
 * column's key → frame time while fuse.js ranks in the same thread, and how
 * long the fuse.js column takes to catch up once typing pauses. Keys are sent
 * at a fixed cadence and timed from when they were due, so a key held up by
 * a ranking in progress counts its wait. Cadences (ms between keys) are
 * `EXPLORE_PERF_CADENCES` (default 120); the README figures come from
 *   NODE_ENV=production EXPLORE_PERF_CADENCES=40,120,250 npx vitest run --config test/vitest.config.ts
 *   test/tui/explore-perf.test.tsx
 */
import { availableParallelism, loadavg } from 'node:os';
import { expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { Explore, type BaselineRanker } from '../../src/tui/explore/Explore.js';
import { loadFuseBaseline } from '../../src/tui/explore/run.js';
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
  const props = {
    index,
    loadBaseline: () => Promise.reject(new Error('unused')),
    catalogArgs: [],
    source: 'synthetic',
    onCopy: () => {},
  };
  const done = runFullScreen(<Explore {...props} />, asTerminal(io), { patchConsole: false });
  await ready(io.stdin);
  const shortest = TOOLS.reduce((a, b) => (b.name.length < a.name.length ? b : a)).name;
  // Typing, deleting, a required keyword, clearing, a select: query.
  const keys = [
    ...'create github issue',
    ...Array(6).fill(KEYS.backspace),
    ...' +slack',
    KEYS.ctrlU,
    ...`select:${shortest}`,
  ];
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

  const lastFrame =
    plain(io.stdout.writes.map((w) => w.data).join(''))
      .split('toolsearch explore')
      .at(-1) ?? '';
  const fmt = (xs: number[]): string =>
    `median ${quantile(xs, 0.5).toFixed(1)} ms, ` +
    `p95 ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(
    `explore on ${TOOLS.length} tools, ${wall.length} keystrokes ` +
      `(React ${process.env.NODE_ENV === 'production' ? 'production' : 'development'} build):\n` +
      `  first key (cold code paths): ${wall[0]!.toFixed(1)} ms to the frame, ${cpu[0]!.toFixed(1)} ms CPU\n` +
      `  every later key → frame written: ${fmt(wall.slice(1))}\n` +
      `  every later key, CPU:            ${fmt(cpu.slice(1))}\n` +
      `  of which the search (CPU):       ${fmt(searchCpu.slice(1))} (warm-up ` +
      `before the screen appears: ${firstQueryMs.toFixed(0)} ms)`,
  );
  expect(lastFrame).toContain('select: 1 tool returned');
  expect(missed.filter((k) => k !== ' ' && k !== KEYS.backspace)).toEqual([]);
});

test('explore on 5,000 tools with the fuse.js column on: the reference keeps up, ' +
  'fuse.js catches up when typing pauses (prints the figures)', async () => {
  const index = new ToolIndex(TOOLS);
  warmUpSearch(index);
  const cadences = (process.env.EXPLORE_PERF_CADENCES ?? '120')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  // Two queries in the suite; five when measuring for the figures (more samples of the catch-up).
  const queries = [
    'create github issue',
    'slack send message',
    'list calendar events',
    'upload file to drive',
    'close jira ticket',
  ].slice(0, process.env.EXPLORE_PERF_CADENCES === undefined ? 2 : 5);

  // The real baseline, timed per ranking.
  const rankMs: number[] = [];
  const rankCpuMs: number[] = [];
  let loadMs = 0;
  const loadBaseline = async (): Promise<BaselineRanker> => {
    const t = performance.now();
    const rank = await loadFuseBaseline(TOOLS);
    loadMs = performance.now() - t;
    return (q, limit) => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const out = rank(q, limit);
      const c = process.cpuUsage(c0);
      rankMs.push(performance.now() - t0);
      rankCpuMs.push((c.user + c.system) / 1000);
      return out;
    };
  };
  const io = fakeIo(80, 24);
  const done = runFullScreen(
    <Explore index={index} loadBaseline={loadBaseline} catalogArgs={[]} source="synthetic" onCopy={() => {}} />,
    asTerminal(io),
    {
      patchConsole: false,
    },
  );
  await ready(io.stdin);
  const frameText = (data: string): string => plain(data);
  /** Resolves with the time of the first write (from now on) whose text passes `check`. */
  const frameWhere = (check: (text: string) => boolean, timeoutMs = 10_000): Promise<number | null> =>
    new Promise((resolve) => {
      const onWrite = (data: string): void => {
        if (!check(frameText(data))) return;
        clearTimeout(timer);
        io.stdout.off('write', onWrite);
        resolve(performance.now());
      };
      const timer = setTimeout(() => {
        io.stdout.off('write', onWrite);
        resolve(null);
      }, timeoutMs);
      io.stdout.on('write', onWrite);
    });
  /** A frame whose fuse.js column ranks `query` (not the previous query's ranking, marked "ranking…"). */
  const fresh =
    (query: string) =>
    (text: string): boolean =>
      text.includes(`query › ${query}`) && text.includes('fuse.js baseline · Δ vs reference');

  // Turn fuse.js on (loads it and indexes the catalog) and warm it up with one query.
  const warm = frameWhere(fresh('warm'));
  io.stdin.write(KEYS.ctrlF);
  io.stdin.write('warm');
  expect(await warm).not.toBeNull();
  io.stdin.write(KEYS.ctrlU);
  await wait(300);
  rankMs.length = 0;
  rankCpuMs.length = 0;

  const keyMs: Record<number, number[]> = {};
  const catchUpMs: Record<number, number[]> = {};
  const rankings: Record<number, number> = {};
  const missed: string[] = [];
  // Every frame written, with its time and query line.
  const frames: Array<{ at: number; query: string }> = [];
  io.stdout.on('write', (data: string) => {
    const line = frameText(data)
      .split('\n')
      .find((l) => l.startsWith('query › '));
    if (line !== undefined) frames.push({ at: performance.now(), query: line.slice('query › '.length).trimEnd() });
  });
  for (const cadence of cadences) {
    keyMs[cadence] = [];
    catchUpMs[cadence] = [];
    const rankedBefore = rankMs.length;
    for (const query of queries) {
      // Keys sent when due, whatever the screen is doing (as a typist does): one
      // that falls due while a ranking runs is read, and timed, after it.
      const chars = Array.from(query);
      const start = performance.now() + 20;
      const due = chars.map((_, i) => start + i * cadence);
      const sent: number[] = [];
      const caughtUp = frameWhere(fresh(query));
      await Promise.all(
        chars.map(
          (ch, i) =>
            new Promise<void>((resolve) =>
              setTimeout(() => {
                io.stdin.write(ch);
                sent[i] = performance.now();
                resolve();
              }, due[i]! - performance.now()),
            ),
        ),
      );
      const at = await caughtUp;
      expect(at, `the fuse.js column caught up with "${query}"`).not.toBeNull();
      catchUpMs[cadence]!.push(at! - due.at(-1)!);
      // Each key: the first frame after it was read that shows the query up to it (spaces show nothing new).
      chars.forEach((ch, i) => {
        const typed = chars
          .slice(0, i + 1)
          .join('')
          .trimEnd();
        const frame = frames.find((f) => f.at >= sent[i]! && f.query.startsWith(typed));
        if (ch === ' ') return;
        if (frame === undefined) missed.push(ch);
        else keyMs[cadence]!.push(frame.at - due[i]!);
      });
      io.stdin.write(KEYS.ctrlU);
      await wait(400);
      frames.length = 0;
    }
    rankings[cadence] = rankMs.length - rankedBefore;
  }
  io.stdin.write('\u0003');
  await done;

  const fmt = (xs: number[]): string =>
    xs.length === 0
      ? 'none'
      : `median ${quantile(xs, 0.5).toFixed(1)} ms, ` +
        `p95 ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;
  const lines = [
    `explore on ${TOOLS.length} tools with the fuse.js column on ` +
      `(React ${process.env.NODE_ENV === 'production' ? 'production' : 'development'} build, ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs):`,
    `  fuse.js load + index: ${loadMs.toFixed(0)} ms (once, on the first f)`,
    `  one fuse.js ranking, on the UI thread: ${fmt(rankMs)}; CPU ${fmt(rankCpuMs)}`,
  ];
  for (const c of cadences) {
    const pad = ' '.repeat(String(c).length + 13);
    lines.push(`  keys every ${c} ms: reference key → frame ${fmt(keyMs[c]!)}`);
    lines.push(`  ${pad}fuse.js column up to date, after the last key: ${fmt(catchUpMs[c]!)}`);
    lines.push(`  ${pad}fuse.js rankings: ${rankings[c]} for ${queries.length} queries typed`);
  }
  console.log(lines.join('\n'));
  expect(missed).toEqual([]);
}, 120_000);
