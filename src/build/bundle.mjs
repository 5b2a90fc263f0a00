#!/usr/bin/env node
/**
 * Build script (run by `npm run build`, not shipped): bundles the CLI with
 * esbuild into dist/bundle:
 *
 * - main.cjs: the whole CLI in one CommonJS file. Node 20 loads it far faster
 *   than ES module chunks (no module graph to resolve, read and link one file
 *   at a time), and src/cli/boot.ts compiles it through V8's code cache.
 *   Modules a command imports on demand stay lazy: esbuild wraps each in an
 *   init function that runs on the first `import()`.
 * - boot.cjs: the loader (src/cli/boot.ts), run by bin/toolsearch.js.
 * - yaml.cjs: the yaml library, required only when a YAML file is parsed (a
 *   cached catalog needs no parser).
 *
 * React, Ink, fuse.js, the MCP SDK, the tokenizer, the AI SDK and zod stay
 * external packages, loaded only by the commands that use them.
 *
 * Two stand-ins:
 * - commander requires `node:child_process` when it loads, only to spawn
 *   executable subcommands (toolsearch has none). Loading it costs every
 *   command ~6 ms (net, dgram, streams), so commander gets a stand-in that
 *   loads the real module on first use. Our own code (the MCP stdio
 *   transport) imports the real module as usual.
 * - Ink is an ES module only, which Node 20 cannot `require()`. The TUI's
 *   static imports of it get a CommonJS stand-in whose exports read the
 *   module that `prepareTui()` (src/tui/tty.ts) imports before any TUI
 *   module is loaded. The export names are Ink's own, read here.
 *
 * __TOOLSEARCH_BUILD_ID__ is a hash of what the bundle is built from (the
 * sources, the lock file, this script): caches keyed by it (loaded catalogs,
 * compiled code) are never used by other code.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = `${ROOT}dist/bundle`;

/** External packages: loaded from node_modules by the commands that need them. */
const EXTERNAL = ['react', 'react/*', 'fuse.js', 're2js', 'tinyglobby', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'gpt-tokenizer', 'gpt-tokenizer/*', 'ai', 'zod'];

function buildId() {
  const h = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else h.update(`${p.slice(ROOT.length)}\0`).update(readFileSync(p)).update('\0');
    }
  };
  walk(`${ROOT}src`);
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.json']) h.update(`${f}\0`).update(readFileSync(`${ROOT}${f}`)).update('\0');
  h.update(`esbuild ${JSON.parse(readFileSync(`${ROOT}node_modules/esbuild/package.json`, 'utf8')).version}`);
  return h.digest('hex').slice(0, 16);
}

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

/** The TUI's static `import … from 'ink'` → a stand-in reading the module prepareTui() loaded; `import('ink')` stays. */
async function inkStandIn() {
  const names = Object.keys(await import('ink')).filter((n) => n !== 'default');
  const contents = `'use strict';
const slot = Symbol.for('toolsearch.ink');
const ink = () => {
  const m = globalThis[slot];
  if (m === undefined) throw new Error('Ink is used before prepareTui() imported it');
  return m;
};
for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => ink()[name] });
`;
  return {
    name: 'ink-stand-in',
    setup(b) {
      b.onResolve({ filter: /^ink$/ }, (args) => (args.kind === 'dynamic-import' ? { path: 'ink', external: true } : { path: 'ink', namespace: 'toolsearch-ink' }));
      b.onLoad({ filter: /.*/, namespace: 'toolsearch-ink' }, () => ({ contents, loader: 'js', resolveDir: ROOT }));
    },
  };
}

/** `yaml` → ./yaml.cjs beside the bundle (built below). */
const yamlBeside = {
  name: 'yaml-beside',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: './yaml.cjs', external: true }));
  },
};

const id = buildId();
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  // Less to read and parse at every start; names stay, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  logLevel: 'warning',
  define: { __TOOLSEARCH_BUILD_ID__: JSON.stringify(id), 'import.meta.url': '__toolsearchImportMetaUrl' },
  banner: { js: "'use strict';\nconst __toolsearchImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * The bundle's `import("<package>")` calls → `__toolsearchImport("<package>")`: src/cli/boot.ts
 * runs the bundle as a vm script (for V8's code cache), whose own import() would need an
 * experimental vm option; boot.ts supplies an importer of its own. Loaded by plain `require`
 * (as the fuzzer does), the bundle uses import() as usual. Only the external packages esbuild
 * reports as dynamically imported are rewritten, and every one of them must be found.
 */
function routeDynamicImports(file, metafile) {
  const dynamic = new Set();
  for (const input of Object.values(metafile.inputs)) {
    for (const i of input.imports) if (i.kind === 'dynamic-import' && i.external) dynamic.add(i.path);
  }
  let text = readFileSync(file, 'utf8');
  for (const spec of dynamic) {
    const call = `import(${JSON.stringify(spec)})`;
    if (!text.includes(call)) throw new Error(`bundle.mjs: ${call} not found in ${file}`);
    text = text.split(call).join(`__toolsearchImport(${JSON.stringify(spec)})`);
  }
  const left = /\bimport\(\s*["'`]/.exec(text);
  if (left) throw new Error(`bundle.mjs: a dynamic import is left in ${file}: ${text.slice(left.index, left.index + 80)}`);
  writeFileSync(file, text);
}

const IMPORTER = "const __toolsearchImport = globalThis[Symbol.for('toolsearch.import')] ?? ((specifier) => import(specifier));";

rmSync(OUT, { recursive: true, force: true });
const [cli] = await Promise.all([
  build({
    ...common,
    entryPoints: { main: `${ROOT}src/cli/main.ts` },
    outExtension: { '.js': '.cjs' },
    outdir: OUT,
    external: EXTERNAL,
    plugins: [lazyChildProcessForCommander, await inkStandIn(), yamlBeside],
    banner: { js: `${common.banner.js}\n${IMPORTER}` },
    metafile: true,
  }),
  build({ ...common, entryPoints: { boot: `${ROOT}src/cli/boot.ts` }, outExtension: { '.js': '.cjs' }, outdir: OUT }),
  build({ ...common, entryPoints: { yaml: createRequire(import.meta.url).resolve('yaml') }, outExtension: { '.js': '.cjs' }, outdir: OUT }),
]);
routeDynamicImports(`${OUT}/main.cjs`, cli.metafile);
