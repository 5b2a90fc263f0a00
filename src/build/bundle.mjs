#!/usr/bin/env node
/**
 * Build script (run by `npm run build`, not shipped): bundles the CLI with
 * esbuild into dist/bundle — one entry, lazy chunks for what commands import
 * on demand. React, Ink, fuse.js, the MCP SDK, the tokenizer, the AI SDK and
 * zod stay external packages, loaded only by the commands that use them.
 *
 * One substitution: commander requires `node:child_process` when it loads,
 * only to spawn executable subcommands (toolsearch has none). Loading it costs
 * every command ~6 ms (net, dgram, streams), so commander gets a stand-in that
 * loads the real module on first use. Our own code (the MCP stdio transport)
 * imports the real module as usual.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = `${ROOT}dist/bundle`;

const LAZY_CHILD_PROCESS = `'use strict';
let real;
module.exports = new Proxy({}, {
  get(_target, key) {
    real ??= require('node:child_process');
    return real[key];
  },
});
`;

/** Commander's `require('node:child_process')` → the stand-in above. */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'toolsearch-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'toolsearch-lazy' }, () => ({ contents: LAZY_CHILD_PROCESS, loader: 'js', resolveDir: ROOT }));
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: [`${ROOT}src/cli/main.ts`],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: OUT,
  legalComments: 'none',
  logLevel: 'warning',
  external: ['react', 'react/*', 'ink', 'fuse.js', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'gpt-tokenizer', 'gpt-tokenizer/*', 'ai', 'zod'],
  // Bundled CommonJS (commander, yaml) calls require() for Node's own modules.
  banner: { js: "import { createRequire as __toolsearchRequire } from 'node:module'; const require = __toolsearchRequire(import.meta.url);" },
  plugins: [lazyChildProcessForCommander],
});
