/**
 * Benchmark child process: loads a catalog file the way a library user would
 * (read + JSON.parse), builds the index, runs every query of a JSONL file of
 * raw arguments, and prints one JSON line with its timings and peak RSS.
 * Run by main.ts in a fresh process so that the peak RSS is this work's alone.
 */
import { readFileSync } from 'node:fs';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { runToolSearch } from '../../src/core/toolsearch.js';
import type { ToolInfo } from '../../src/core/types.js';

const [catalogPath, queriesPath] = process.argv.slice(2);
if (!catalogPath || !queriesPath) throw new Error('usage: child.mjs <catalog.json> <queries.jsonl>');
const t0 = performance.now();
const doc = JSON.parse(readFileSync(catalogPath, 'utf8')) as { tools: ToolInfo[] };
const tools = doc.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
const t1 = performance.now();
const index = new ToolIndex(tools);
const t2 = performance.now();
const lines = readFileSync(queriesPath, 'utf8')
  .split('\n')
  .filter((l) => l !== '');
let matches = 0;
const times: number[] = [];
for (const line of lines) {
  const s = performance.now();
  const r = runToolSearch(index, line);
  times.push(performance.now() - s);
  if (r.ok) matches += r.matches.length;
}
const t3 = performance.now();
times.sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    tools: tools.length,
    queries: lines.length,
    matches,
    loadMs: t1 - t0,
    indexMs: t2 - t1,
    queriesMs: t3 - t2,
    medianQueryMs: times[times.length >> 1] ?? 0,
    maxRssKb: process.resourceUsage().maxRSS,
  })}\n`,
);
