#!/usr/bin/env node
// `npm run bench` entry. Node 20 cannot run TypeScript, so this bundles the
// benchmark (test/bench/main.ts, which imports src/ and the naive model from
// test/core/ directly, so it always measures the current sources) with esbuild
// into node_modules/.cache, then runs it in a fresh Node with --expose-gc.
// Packages (fuse.js, yaml) stay external and load from node_modules.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outdir = `${root}node_modules/.cache/toolsearch-bench`;
mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: { main: `${root}test/bench/main.ts`, child: `${root}test/bench/child.ts` },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});
const res = spawnSync(
  process.execPath,
  ['--expose-gc', '--enable-source-maps', `${outdir}/main.mjs`, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: root,
  },
);
process.exitCode = res.status ?? 1;
