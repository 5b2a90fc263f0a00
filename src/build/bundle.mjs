/**
 * Part of the build (src/build/build.mjs, not shipped): bundles the CLI with
 * esbuild into <dist>/bundle, one CommonJS bundle written as two files:
 *
 * - cli.cjs: src/cli/main.ts and everything a `search` needs (commander,
 *   the scorer, the catalog loaders, js-yaml's reader, the text report).
 * - cli-more.cjs: the rest: every other command and the search features a
 *   plain search does not use ({@link SECOND_FILE_ROOTS}, and what only they
 *   import). cli.cjs requires it the first time one of those is imported.
 * - start.cjs: src/cli/start.ts, run by bin/toolsearch.js: answers a bare
 *   `--version`, turns on Node's compile cache, then requires cli.cjs (on
 *   Node 20, runs it from V8's code cache: src/cli/code-cache.ts; so cli.cjs
 *   may hold no `import()`, which the build checks).
 *
 * Why two files: Node compiles a file as a whole at every start (Node 20 has
 * no compile cache, and later Nodes have none on a first run), and a search
 * needs a third of the code. A cached search took 66 ms with one 1,025 kB
 * file and 53 ms with the 370 kB of cli.cjs (Node 20, `node -e 0`: 23 ms).
 * Every module is in exactly one file: a module of cli.cjs that cli-more.cjs
 * imports is handed over (cli.cjs fills cli-more.cjs's `links` before it
 * loads anything from it), so both files share one instance of each module
 * (its state, its classes for `instanceof`), and cli-more.cjs calls its
 * functions directly. The build checks that no module is in both files.
 * cli.cjs holds no `import()` of its own (an ES-only package such as Ink is
 * imported by a command in cli-more.cjs). Modules a command imports on
 * demand stay lazy within each file: esbuild wraps each in an init function
 * that runs on the first `import()`.
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
import { join, relative } from 'node:path';
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
 * Where cli-more.cjs starts: modules that cli.cjs imports on demand (`import()`) and that a plain search never
 * loads: the other commands, what a search loads only when asked (another engine, an MCP server's tools), and a
 * bulk replay's session replayer (which a worker thread of the bundle imports).
 */
const SECOND_FILE_ROOTS = [
  /^src\/cli\/commands\/(?!search\.ts$)[^/]+\.ts$/,
  /^src\/cli\/engine-search\.ts$/,
  /^src\/formats\/mcp\/(list-tools|catalog)\.ts$/,
  /^src\/jobs\/simulate\/bulk-session\.ts$/,
];

const FIRST = 'cli.cjs';
const SECOND = 'cli-more.cjs';

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

/** A module's key: its path from the repository's root, with / (also the key in both files' hand-over). */
const keyOf = (path) => relative(ROOT, path).split('\\').join('/');

/** Options shared by every esbuild run. */
function common(id) {
  return {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Named: esbuild finds a file's tsconfig.json from the entry point, and the entries here are made up.
    tsconfig: `${ROOT}tsconfig.json`,
    external: EXTERNAL,
    legalComments: 'none',
    // Less to read and parse at every start; names stay, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    logLevel: 'warning',
    // The sources are ES modules; in CommonJS, import.meta.url is the file's URL made from __filename.
    define: { __TOOLSEARCH_BUILD_ID__: JSON.stringify(id), 'import.meta.url': '__importMetaUrl' },
    banner: { js: "'use strict';\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  };
}

/**
 * cli.cjs (and start.cjs). An `import()` of a second-file root becomes a module that requires cli-more.cjs,
 * hands it the modules in `handOver` (their namespaces, filled into its `links`) and takes the root from it.
 * `cut` collects those roots' keys.
 */
function firstFile(dir, id, handOver, cut, write) {
  const plugin = {
    name: 'toolsearch-first-file',
    setup(b) {
      b.onResolve({ filter: /^toolsearch:/ }, (args) => ({ path: args.path, namespace: 'toolsearch' }));
      b.onResolve({ filter: /^\.\/cli-more\.cjs$/ }, () => ({ path: `./${SECOND}`, external: true }));
      b.onResolve({ filter: /^\./ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
        const r = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'inner' });
        if (r.errors.length > 0 || !SECOND_FILE_ROOTS.some((re) => re.test(keyOf(r.path)))) return r;
        cut.add(keyOf(r.path));
        // .cjs: a module of require and module.exports (esbuild takes a name's extension as its module kind).
        return { path: `toolsearch:root/${keyOf(r.path)}.cjs`, namespace: 'toolsearch' };
      });
      b.onLoad({ filter: /.*/, namespace: 'toolsearch' }, (args) => {
        const resolveDir = ROOT;
        if (args.path === 'toolsearch:hand-over') {
          const keys = [...handOver].sort();
          const lines = keys.map((k, i) => `import * as m${i} from './${k}';`);
          lines.push(`export const links = {${keys.map((k, i) => `${JSON.stringify(k)}: m${i}`).join(', ')}};`);
          return { contents: lines.join('\n'), loader: 'js', resolveDir };
        }
        const key = JSON.stringify(args.path.slice('toolsearch:root/'.length, -'.cjs'.length));
        const contents = [
          `const more = require('./${SECOND}');`,
          "Object.assign(more.links, require('toolsearch:hand-over').links);",
          `module.exports = more.roots[${key}]();`,
        ];
        return { contents: contents.join('\n'), loader: 'js', resolveDir };
      });
    },
  };
  return build({
    ...common(id),
    entryPoints: { cli: `${ROOT}src/cli/main.ts`, start: `${ROOT}src/cli/start.ts` },
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    plugins: [lazyChildProcessForCommander, plugin],
    metafile: true,
    write,
  });
}

/**
 * cli-more.cjs: `roots`, one function per root in `cut` that loads it, and `links`, which cli.cjs fills with
 * its modules before it calls one: a module of cli.cjs (`inFirst`) is taken from there, and its key added to
 * `handOver`. Nothing in the file runs before a root is loaded (every module in it waits for a root's first
 * use), and it never requires cli.cjs, which on Node 20 is no module Node knows (src/cli/code-cache.ts).
 */
function secondFile(dir, id, cut, inFirst, exportsOf, handOver) {
  const plugin = {
    name: 'toolsearch-second-file',
    setup(b) {
      b.onResolve({ filter: /^toolsearch:/ }, (args) => ({ path: args.path, namespace: 'toolsearch' }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'inner' || args.namespace !== 'file' || args.kind === 'entry-point') return undefined;
        const r = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'inner' });
        if (r.errors.length > 0 || r.external || !inFirst.has(keyOf(r.path))) return r;
        const key = keyOf(r.path);
        handOver.add(key);
        // .mjs / .cjs: esbuild takes a name's extension as its module kind.
        return { path: `toolsearch:first/${key}.${exportsOf.has(key) ? 'mjs' : 'cjs'}`, namespace: 'toolsearch' };
      });
      b.onLoad({ filter: /.*/, namespace: 'toolsearch' }, (args) => {
        const loader = 'js';
        const resolveDir = ROOT;
        if (args.path === 'toolsearch:links.mjs') return { contents: 'export const links = {};', loader };
        if (args.path === 'toolsearch:entry') {
          const roots = [...cut].sort().map((k) => `  ${JSON.stringify(k)}: () => require('./${k}'),`);
          const contents = [
            "exports.links = require('toolsearch:links.mjs').links;",
            'exports.roots = {',
            ...roots,
            '};',
          ];
          return { contents: contents.join('\n'), loader, resolveDir };
        }
        const key = args.path.slice('toolsearch:first/'.length).replace(/\.[cm]js$/, '');
        const names = exportsOf.get(key);
        if (names === undefined) {
          // A CommonJS module (a package's): its exports object, read through esbuild's interop as in cli.cjs.
          const contents = `module.exports = require('toolsearch:links.mjs').links[${JSON.stringify(key)}];`;
          return { contents, loader, resolveDir };
        }
        // An ES module: each export read once, when the first module here that imports it starts (after cli.cjs
        // filled the links), so calls into cli.cjs are plain calls, not two accessors deep (each export of a
        // namespace, and again of esbuild's CommonJS interop: 15% of a bulk replay). The build checks that no
        // such export is a `let` or `var` that could change later.
        const lines = ["import { links } from 'toolsearch:links.mjs';", `const m = links[${JSON.stringify(key)}];`];
        for (const [i, name] of names.entries()) lines.push(`const x${i} = m[${JSON.stringify(name)}];`);
        lines.push(`export { ${names.map((n, i) => `x${i} as ${JSON.stringify(n)}`).join(', ')} };`);
        return { contents: lines.join('\n'), loader, resolveDir };
      });
    },
  };
  return build({
    ...common(id),
    entryPoints: { 'cli-more': 'toolsearch:entry' },
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    plugins: [lazyChildProcessForCommander, plugin],
    metafile: true,
  });
}

/** What the metafile of an esbuild run says of the file `file` it wrote (cli.cjs by default). */
function outputOf(result, file = FIRST) {
  return Object.entries(result.metafile.outputs).find(([f]) => f.endsWith(`/${file}`))[1];
}

/** The source files (keys) an esbuild run put into `file` (cli.cjs by default). */
function modulesIn(result, file = FIRST) {
  return new Set(Object.keys(outputOf(result, file).inputs).filter((k) => !k.includes(':')));
}

/**
 * The export names of each ES module among `keys` (a CommonJS module has none here: it is absent). Refuses a
 * module that exports a `let` or `var`: cli-more.cjs reads each export once, which would miss a later change.
 */
async function exportNames(id, keys) {
  const { external: _, banner: __, ...options } = common(id);
  const result = await build({
    ...options,
    bundle: false,
    format: 'esm',
    entryPoints: [...keys].map((k) => `${ROOT}${k}`),
    outdir: `${ROOT}.exports`,
    write: false,
    metafile: true,
    logLevel: 'error', // each file alone: warnings of packages' require() calls that bundling resolves
  });
  const out = new Map();
  for (const o of Object.values(result.metafile.outputs)) {
    const key = o.entryPoint;
    if (result.metafile.inputs[key]?.format !== 'esm') continue;
    if (/^export\s+(?:let|var)\b/m.test(readFileSync(`${ROOT}${key}`, 'utf8')))
      throw new Error(`bundle: ${key} exports a let or var, which cli-more.cjs would read only once`);
    out.set(key, o.exports);
  }
  return out;
}

/** Writes the CLI's bundle into `dir`. */
export async function bundle(dir) {
  const id = buildId();
  // 1. What cli.cjs holds, and where cli-more.cjs starts.
  const cut = new Set();
  const inFirst = modulesIn(await firstFile(dir, id, new Set(), cut, false));
  // 2. cli-more.cjs, which finds the modules of cli.cjs it needs handed over.
  const handOver = new Set();
  const more = await secondFile(dir, id, cut, inFirst, await exportNames(id, inFirst), handOver);
  const twice = [...modulesIn(more, SECOND)].filter((k) => inFirst.has(k));
  if (twice.length > 0) throw new Error(`bundle: in both files: ${twice.join(', ')}`);
  // 3. cli.cjs, handing them over; it holds the same modules as in 1 (the hand-over only names modules it has).
  const result = await firstFile(dir, id, handOver, new Set(), true);
  const written = modulesIn(result);
  const differ = [...written].filter((k) => !inFirst.has(k)).concat([...inFirst].filter((k) => !written.has(k)));
  if (differ.length > 0) throw new Error(`bundle: cli.cjs changed between its two builds: ${differ.join(', ')}`);
  // On Node 20, cli.cjs runs in a vm.Script (src/cli/code-cache.ts), which has no loader for import().
  const dynamic = outputOf(result)
    .imports.filter((i) => i.kind === 'dynamic-import')
    .map((i) => i.path);
  if (dynamic.length > 0) throw new Error(`bundle: import() in cli.cjs (require it instead): ${dynamic.join(', ')}`);
}
