/**
 * Part of the build (src/build/build.mjs, not shipped): bundles the CLI with
 * esbuild into <dist>/bundle:
 *
 * - cli.cjs: the whole CLI (src/cli/main.ts) in one CommonJS file, commander
 *   and js-yaml's reader included. Node 20 loads one file far faster than ES
 *   module chunks (each resolved, read and linked in turn). Modules a command
 *   imports on demand stay lazy: esbuild wraps each in an init function that
 *   runs on the first `import()`.
 * - start.cjs: src/cli/start.ts, run by bin/toolsearch.js: answers a bare
 *   `--version`, turns on Node's compile cache, then requires cli.cjs.
 *
 * A bulk replay's worker threads run cli.cjs too (src/jobs/simulate/bulk-worker.ts).
 *
 * Packages that are large or that only some commands need stay external,
 * loaded from node_modules when a command needs them: React, Ink (through
 * src/tui/ink.ts: an ES module with top-level await, which CommonJS can only
 * import()), fuse.js, the MCP SDK, the tokenizer, the AI SDK, zod, and the
 * yaml library (which writes YAML: suite --update, import).
 *
 * __TOOLSEARCH_BUILD_ID__ is a hash of what the bundle is built from (the
 * sources, the lock file, this script): the catalog cache keys entries by
 * it, so an entry is never used by other code.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** External packages: loaded from node_modules by the commands that need them. */
const EXTERNAL = [
  'react',
  'react/*',
  'ink',
  'fuse.js',
  're2js',
  'picomatch',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/sdk/*',
  'gpt-tokenizer',
  'gpt-tokenizer/*',
  'ai',
  'zod',
  'yaml',
];

/**
 * commander requires node:child_process when it loads, to run a subcommand's own executable (which toolsearch
 * never asks of it); loading that module and what it needs (net, dgram, streams) takes ~2.5 ms of CPU at every
 * start on Node 20 and 22. In the bundle, commander gets a child_process that loads the real one when used.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

function buildId() {
  const h = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else
        h.update(`${p.slice(ROOT.length)}\0`)
          .update(readFileSync(p))
          .update('\0');
    }
  };
  walk(`${ROOT}src`);
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.json']) {
    h.update(`${f}\0`)
      .update(readFileSync(`${ROOT}${f}`))
      .update('\0');
  }
  const esbuild = JSON.parse(readFileSync(`${ROOT}node_modules/esbuild/package.json`, 'utf8')).version;
  h.update(`esbuild ${esbuild}`);
  return h.digest('hex').slice(0, 16);
}

/** Writes the CLI's bundle into `dir`. */
export async function bundle(dir) {
  await build({
    entryPoints: {
      cli: `${ROOT}src/cli/main.ts`,
      start: `${ROOT}src/cli/start.ts`,
    },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    external: EXTERNAL,
    plugins: [lazyChildProcessForCommander],
    legalComments: 'none',
    // Less to read and parse at every start; names stay, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    logLevel: 'warning',
    // The sources are ES modules; in CommonJS, import.meta.url is the file's URL made from __filename.
    define: { __TOOLSEARCH_BUILD_ID__: JSON.stringify(buildId()), 'import.meta.url': '__importMetaUrl' },
    banner: { js: "'use strict';\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
}
