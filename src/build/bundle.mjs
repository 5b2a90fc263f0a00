/**
 * Part of the build (src/build/build.mjs, not shipped): bundles the CLI with
 * esbuild into <dist>/bundle:
 *
 * - main.cjs: the whole CLI in one CommonJS file. Node 20 loads one file far
 *   faster than ES module chunks (each resolved, read and linked in turn).
 *   Modules a command imports on demand stay lazy: esbuild wraps each in an
 *   init function that runs on the first `import()`.
 * - search.cjs: the same for a run of search or select (src/cli/main-search.ts),
 *   without the other commands: Node 20, which has no compile cache, compiles
 *   every byte of the bundle it loads at every start.
 * - start.cjs: src/cli/start.ts, run by bin/toolsearch.js: turns on Node's
 *   compile cache, then requires main.cjs or search.cjs.
 * - js-yaml.cjs: the part of js-yaml that src/io/yaml.ts reads YAML
 *   with (its event parser), required only when a YAML file is read (a cached
 *   catalog needs no parser); yaml.cjs: the yaml library, which writes and
 *   edits YAML (suite --update, import); commander.cjs: commander, required
 *   only when the program is built (a plain search is read without it).
 *
 * Packages that are large or that only some commands need stay external:
 * React, Ink (through src/tui/ink.ts: an ES module with top-level await,
 * which CommonJS can only import()), fuse.js, the MCP SDK, the tokenizer,
 * the AI SDK, zod.
 *
 * __TOOLSEARCH_BUILD_ID__ is a hash of what the bundle is built from (the
 * sources, the lock file, this script): the catalog cache keys entries by
 * it, so an entry is never used by other code.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
];

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

/**
 * `js-yaml`, `yaml` and `commander` → ./<name>.cjs beside the bundle (built below): each is required only
 * when a run needs it (a cached catalog needs no parser, a plain search no commander), and Node 20, which
 * has no compile cache, compiles every byte of the files it loads.
 */
const besides = {
  name: 'libraries-beside',
  setup(b) {
    b.onResolve({ filter: /^(js-yaml|yaml|commander)$/ }, (args) => ({ path: `./${args.path}.cjs`, external: true }));
  },
};

/** What src/io/yaml.ts imports of js-yaml: the rest of it (its writer, its loader) is left out. */
const JS_YAML_READER = "export { getScalarValue, parseEvents, YAMLException } from 'js-yaml';";

/** Writes the CLI's bundle into `dir`. */
export async function bundle(dir) {
  const common = {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    legalComments: 'none',
    // Less to read and parse at every start; names stay, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    logLevel: 'warning',
    // The sources are ES modules; in CommonJS, import.meta.url is the file's URL made from __filename.
    define: { __TOOLSEARCH_BUILD_ID__: JSON.stringify(buildId()), 'import.meta.url': '__importMetaUrl' },
    banner: { js: "'use strict';\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  };
  await Promise.all([
    build({
      ...common,
      entryPoints: {
        main: `${ROOT}src/cli/main.ts`,
        search: `${ROOT}src/cli/main-search.ts`,
        // A bulk replay's worker thread: one file to load, not tsc's module graph (its warm-up is what a
        // worker costs; src/jobs/simulate/bulk.ts).
        'bulk-worker': `${ROOT}src/jobs/simulate/bulk-worker.ts`,
      },
      external: EXTERNAL,
      plugins: [besides],
    }),
    build({ ...common, entryPoints: { start: `${ROOT}src/cli/start.ts` } }),
    build({
      ...common,
      stdin: { contents: JS_YAML_READER, resolveDir: ROOT, sourcefile: 'js-yaml-reader.js' },
      outdir: undefined,
      outfile: join(dir, 'js-yaml.cjs'),
    }),
    build({
      ...common,
      entryPoints: {
        yaml: createRequire(import.meta.url).resolve('yaml'),
        commander: createRequire(import.meta.url).resolve('commander'),
      },
    }),
  ]);
}
