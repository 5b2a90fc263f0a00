#!/usr/bin/env node
/**
 * The fuzzer: mutates the fixtures (bit flips, truncation, splicing, escape
 * injection, deep nesting, duplicated keys, prototype names, YAML aliases
 * and tags, encodings) and runs the real CLI over them, classifying every
 * run as a clean result, a clean error or a failure (see `classify.mjs`).
 *
 *   npm run fuzz -- --iterations 20000 --seed 7
 *   npm run fuzz -- --seed 7 --replay-iteration 1234      # one iteration, verbosely
 *   npm run fuzz -- --iterations 300 --seed 1 --mode spawn # `node bin/toolsearch.js` per run
 *   npm run fuzz -- --iterations 5000 --seed 3 --cache-tamper # damage the cache between runs
 *
 * Options: --iterations N (default 1000), --seed S (default: from the clock,
 * printed), --start K (first iteration, default 0), --mode inproc|spawn
 * (default inproc: `main(argv, io)` of dist/bundle/cli.cjs, the esbuild
 * bundle that bin/toolsearch.js runs, in worker threads; spawn: `node
 * bin/toolsearch.js` per run), --entry bundle|tsc (inproc: run the bundle,
 * the default, or the tsc output dist/cli/main.js),
 * --workers N (default 2), --timeout SECONDS per run (default 10),
 * --out DIR (where failing inputs are saved; default
 * $TMPDIR/toolsearch-fuzz-failures), --json (print the summary as JSON on
 * the last line), --keep (keep the workspace), --stats (the kinds of clean
 * errors seen), --plan-only (print what each iteration would run, run
 * nothing: shows that the plan depends on the seed alone), --main FILE (the
 * module exporting `main` to run in process, e.g. a snapshot of
 * dist/bundle/cli.cjs while others rebuild, in a copy of the whole dist/
 * whose tsc output then serves too; overrides --entry), --bin FILE
 * (the same for --mode spawn: a copy of bin/toolsearch.js beside such a
 * snapshot), --cache-tamper (every run uses a cache directory of the
 * workspace, in process too; before each run its files are damaged — see
 * tamper.mjs — and a search or select runs twice, with more damage in
 * between: both must answer exactly alike), --kind K (every iteration of one kind: catalog, transcript,
 * suite, queries, batch, args, argv, mcpconfig, sessions, aggregate, or findings — issue 27's inputs,
 * generated whole by findings.mjs). The summary names what ran
 * (`target`) and, with --cache-tamper, how many files were damaged.
 *
 * Deterministic given the seed: iteration K draws from a generator seeded by
 * (seed, K) alone. Exit status: 0 when no run failed, 1 otherwise, 2 on bad
 * options. Needs the build (`npm run build`).
 *
 * Over 400 lines: the runner and its options; mutators (mutate.mjs) and scenarios (scenarios.mjs) live apart.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { batchLineCount, classify } from './classify.mjs';
import { NO_SUCH_SERVER, safeToStart, setServerEnv } from './mcp-configs.mjs';
import { iterationRng } from './rng.mjs';
import { loadCorpus, planEnv, planIteration, prepareWorkspace } from './scenarios.mjs';
import { restoreForged, tamperCache } from './tamper.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let BIN = join(ROOT, 'bin/toolsearch.js');
/**
 * What `--entry` picks for the in-process mode: what users run (the bundle behind bin/toolsearch.js), or the tsc
 * output.
 */
const ENTRIES = { bundle: join(ROOT, 'dist/bundle/cli.cjs'), tsc: join(ROOT, 'dist/cli/main.js') };
let MAIN_JS = ENTRIES.bundle;
const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** What `--kind` picks: the kinds of iteration (scenarios.mjs, planIteration). */
const KINDS = [
  'catalog',
  'transcript',
  'suite',
  'queries',
  'batch',
  'args',
  'argv',
  'mcpconfig',
  'sessions',
  'aggregate',
  'findings',
];

function usage(message) {
  process.stderr.write(`fuzz: ${message}\n`);
  process.exit(2);
}

export function parseOptions(argv) {
  const o = {
    iterations: 1000,
    seed: String(Date.now() % 1_000_000_000),
    start: 0,
    mode: 'inproc',
    workers: 2,
    timeout: 10,
    out: join(tmpdir(), 'toolsearch-fuzz-failures'),
    json: false,
    keep: false,
    replay: null,
    quiet: false,
    stats: false,
    planOnly: false,
    cacheTamper: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const int = (v) => {
      if (!/^\d+$/.test(v)) usage(`${a}: expected a whole number, got ${JSON.stringify(v)}`);
      return Number(v);
    };
    switch (a) {
      case '--iterations':
        o.iterations = int(value());
        break;
      case '--seed':
        o.seed = value();
        break;
      case '--start':
        o.start = int(value());
        break;
      case '--mode':
        o.mode = value();
        if (!['inproc', 'spawn'].includes(o.mode)) usage('--mode: inproc or spawn');
        break;
      case '--workers':
        o.workers = Math.max(1, int(value()));
        break;
      case '--timeout':
        o.timeout = Math.max(1, int(value()));
        break;
      case '--out':
        o.out = value();
        break;
      case '--replay-iteration':
        o.replay = int(value());
        break;
      case '--json':
        o.json = true;
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--quiet':
        o.quiet = true;
        break;
      case '--stats':
        o.stats = true;
        break;
      case '--plan-only':
        o.planOnly = true;
        break;
      case '--cache-tamper':
        o.cacheTamper = true;
        break;
      case '--kind':
        o.kind = value();
        if (!KINDS.includes(o.kind)) usage(`--kind: one of ${KINDS.join(', ')}`);
        break;
      case '--main':
        // (absolute: the runs' working directory is the workspace)
        o.main = resolve(value());
        break;
      case '--entry':
        o.entry = value();
        if (!Object.hasOwn(ENTRIES, o.entry)) usage('--entry: bundle or tsc');
        break;
      case '--bin':
        o.bin = resolve(value());
        break;
      case '-h':
      case '--help':
        process.stdout.write(
          readFileSync(fileURLToPath(import.meta.url), 'utf8')
            .split('*/')[0]
            .replace(/^#!.*\n\/\*\*\n/, '')
            .replace(/^ \* ?/gm, ''),
        );
        process.exit(0);
        break;
      default:
        usage(`unknown option ${a}`);
    }
  }
  return o;
}

const COMMANDS = new Set(['search', 'select', 'simulate', 'aggregate', 'test', 'eval', 'lint', 'import', 'explore']);

/** An error line without its file, position and quoted text: what kind of error it is. */
function errorKind(line) {
  return line
    .replace(/^error: /, '')
    .replace(/^\S*?:\d+:\d+: |^\/\S*?: /, '')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 90);
}

// ---------------------------------------------------------------- executors

/** Runs `main(argv, io)` in worker threads; a run that overruns its time ends its worker. */
class InProcPool {
  constructor(size, timeoutMs) {
    this.timeoutMs = timeoutMs;
    this.slots = Array.from({ length: size }, () => ({ worker: null, busy: false }));
    this.waiting = [];
    this.nextId = 0;
  }

  async start(slot) {
    const worker = new Worker(WORKER, {
      workerData: { mainJs: MAIN_JS },
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
      stdout: true,
      stderr: true,
    });
    // Anything written to the real streams is a bug (the CLI writes through `io` only): captured and reported.
    slot.leak = '';
    worker.stdout.on('data', (b) => (slot.leak += b));
    worker.stderr.on('data', (b) => (slot.leak += b));
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    slot.worker = worker;
  }

  async acquire() {
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return free;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(slot) {
    const next = this.waiting.shift();
    if (next) next(slot);
    else slot.busy = false;
  }

  async run(job) {
    const slot = await this.acquire();
    try {
      if (!slot.worker) await this.start(slot);
      const worker = slot.worker;
      const id = this.nextId++;
      const result = await new Promise((resolve) => {
        const done = (r) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          resolve(r);
        };
        const onMessage = (m) => m.id === id && done(m);
        const onError = (err) => {
          slot.worker = null;
          done({
            code: null,
            stdout: '',
            stderr: '',
            crash: `worker error: ${err?.code ?? ''} ${err?.message ?? err}`,
          });
        };
        const onExit = (code) => {
          slot.worker = null;
          done({ code: null, stdout: '', stderr: '', crash: `worker exited (${code})` });
        };
        const timer = setTimeout(() => {
          slot.worker = null;
          worker.off('exit', onExit);
          void worker.terminate();
          done({ code: null, stdout: '', stderr: '', timedOut: true });
        }, this.timeoutMs);
        worker.on('message', onMessage);
        worker.once('error', onError);
        worker.once('exit', onExit);
        worker.postMessage({
          id,
          argv: job.argv,
          stdin: job.stdin ?? null,
          env: job.env,
          tty: job.tty,
          fileCache: job.fileCache === true,
        });
      });
      if (slot.leak) {
        result.crash ??= `wrote to the process's own streams: ${JSON.stringify(slot.leak.slice(0, 300))}`;
        slot.leak = '';
      }
      return result;
    } finally {
      this.release(slot);
    }
  }

  async close() {
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
  }
}

function childEnv(extra) {
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.COLUMNS;
  delete env.TOOLSEARCH_DEBUG;
  return { ...env, ...extra };
}

/** Runs `node bin/toolsearch.js` per job, at most `size` at a time. */
class SpawnPool {
  constructor(size, timeoutMs, cwd) {
    this.timeoutMs = timeoutMs;
    this.cwd = cwd;
    this.free = size;
    this.waiting = [];
  }

  async run(job) {
    if (this.free > 0) this.free--;
    else await new Promise((resolve) => this.waiting.push(resolve));
    try {
      return await new Promise((resolve) => {
        let child;
        try {
          child = spawn(process.execPath, [BIN, ...job.argv], {
            cwd: this.cwd,
            env: childEnv(job.env),
            stdio: ['pipe', 'pipe', 'pipe'],
          });
        } catch (e) {
          resolve({ code: null, stdout: '', stderr: '', crash: `the fuzzer could not start the run: ${e.message}` });
          return;
        }
        const out = [];
        const err = [];
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, this.timeoutMs);
        child.stdout.on('data', (b) => out.push(b));
        child.stderr.on('data', (b) => err.push(b));
        child.stdin.on('error', () => {});
        child.on('error', (e) => {
          clearTimeout(timer);
          resolve({ code: null, stdout: '', stderr: '', crash: `spawn failed: ${e.message}` });
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          resolve({
            code,
            signal: timedOut ? null : signal,
            timedOut,
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(err).toString('utf8'),
          });
        });
        child.stdin.end(job.stdin ? Buffer.from(job.stdin) : '');
      });
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }

  async close() {}
}

// ---------------------------------------------------------------- iterations

function sha(path) {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/** The name of an iteration's mutated input (written before its runs, removed after them). */
const MUTATED = /^fuzz-\d+-/;

/** Hashes of every file under `dir` but the mutated inputs of iterations under way. */
function treeHashes(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      // (links not followed: an iteration kept by --replay-iteration may hold dangling or looping ones)
      if (lstatSync(p).isDirectory()) walk(p);
      else if (!MUTATED.test(n)) out.set(relative(dir, p), sha(p));
    }
  };
  walk(dir);
  return out;
}

/** Writes what a plan of issue 27's inputs lists (findings.mjs): directories, files, hard and symbolic links. */
function makeSetup(setup) {
  for (const s of setup) {
    if (s.dir) mkdirSync(s.dir, { recursive: true });
    else if (s.link) symlinkSync(s.link, s.path);
    else if (s.hardlinks) for (const l of s.hardlinks) linkSync(s.path, l);
    else writeFileSync(s.path, s.text);
  }
}

/** Hashes of the regular files under `dir`, links not followed: none of them may change in a run. */
function setupHashes(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(relative(dir, p), st.isSymbolicLink() ? 'link' : `${st.ino}:${sha(p)}`);
    }
  };
  walk(dir);
  return out;
}

function sameHashes(a, b) {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/** Options after which a catalog or client config file is named. */
const CONFIG_FLAGS = new Set(['-c', '--catalog', '--config']);
/** Commands with `--server` (the ones that read MCP client configs). */
const SERVER_COMMANDS = new Set(['search', 'select', 'simulate', 'eval', 'lint', 'explore', 'import']);

/**
 * The run as it may be given to the CLI: when a catalog or config file it
 * names would start anything but the fuzzer's harmless MCP server (or
 * contact anything but the unreachable URL), `--server` with a key no config
 * has, so the CLI validates the config and stops before starting a server
 * (see mcp-configs.mjs). Any catalog file is checked, not only the config
 * seeds: a splice could make one of a mutated catalog.
 */
function guardConfigs(state, run, env) {
  const files = run.argv.filter((a, i) => i > 0 && CONFIG_FLAGS.has(run.argv[i - 1]) && !a.startsWith('mcp:'));
  const envs = [process.env, childEnv(env)];
  const unsafe = files.some((f) => existsSync(f) && !safeToStart(state.reader, f, envs, state.ws));
  if (!unsafe) return run;
  if (!SERVER_COMMANDS.has(run.argv[0])) throw new Error(`fuzz: cannot guard ${run.argv[0]} against a client config`);
  state.guarded++;
  return { ...run, argv: [run.argv[0], '--server', NO_SUCH_SERVER, ...run.argv.slice(1)], guarded: true };
}

function outFileState(path, existedBefore) {
  const dir = dirname(path);
  const leftovers = existsSync(dir)
    ? readdirSync(dir).filter((n) => n.startsWith(`.${basename(path)}`) && n.endsWith('.tmp'))
    : [];
  const exists = existsSync(path);
  return { exists, existedBefore, text: exists ? readFileSync(path, 'utf8') : '', leftovers };
}

/** Commands whose answer depends on their inputs alone: with --cache-tamper, run twice and compared. */
const REPEATABLE = new Set(['search', 'select']);

/** Plans and runs one iteration; returns `{plan, runs: [{run, result, verdict}]}`. */
async function runIteration(state, pool, iteration, cacheDir = state.cacheDir) {
  const rng = iterationRng(state.seed, iteration);
  const plan = planIteration(rng, iteration, state);
  const planned = planEnv(rng);
  const { tty, color } = planned;
  // Tampering draws from a generator of its own: the plan of an iteration stays that of the seed alone.
  const trng = cacheDir ? iterationRng(`${state.seed}:cache`, iteration) : null;
  const env = cacheDir ? { ...planned.env, TOOLSEARCH_CACHE_DIR: cacheDir } : planned.env;
  if (plan.inputPath) writeFileSync(plan.inputPath, plan.bytes);
  if (plan.setup) makeSetup(plan.setup);
  const outcomes = [];
  // Damage before a run; a well-formed forged entry (only the cache's owner can make one) is put back
  // after that run, and the answer of such a run is not compared.
  const tamper = () => {
    const t = tamperCache(cacheDir, trng);
    state.tampered += t.done.length;
    return t;
  };
  try {
    for (const planned of plan.runs) {
      const run = guardConfigs(state, planned, env);
      const t1 = trng ? tamper() : { done: [], forged: [] };
      const before = plan.inputPath && !run.writesInput ? sha(plan.inputPath) : null;
      const setupBefore = plan.setupDir ? setupHashes(plan.setupDir) : null;
      const existedBefore = run.outFile ? existsSync(run.outFile) : false;
      const stdinBytes = run.stdinFile
        ? (run.batchBytes ?? readFileSync(run.stdinFile))
        : typeof run.stdin === 'string'
          ? Buffer.from(run.stdin)
          : null;
      if (run.output === 'jsonl') run.batchLines = batchLineCount(run.batchBytes ?? readFileSync(run.batchFile));
      const runEnv = run.env ? { ...env, ...run.env } : env;
      const job = { argv: run.argv, env: runEnv, tty, stdin: stdinBytes, fileCache: trng !== null };
      const result = await pool.run(job);
      restoreForged(t1.forged);
      if (before !== null) result.inputChanged = sha(plan.inputPath) !== before;
      if (setupBefore !== null) result.inputChanged ||= !sameHashes(setupBefore, setupHashes(plan.setupDir));
      if (run.outFile) result.outFile = outFileState(run.outFile, existedBefore);
      const verdict = classify({ ...run, color, tty }, result);
      outcomes.push({ run, result, verdict, tampered: t1.done });
      if (trng && REPEATABLE.has(run.argv[0]) && verdict.verdict !== 'failure') {
        // Damaged again, the same command must answer exactly alike: a cache is only ever a miss.
        const t2 = tamper();
        const second = await pool.run(job);
        restoreForged(t2.forged);
        let v = classify({ ...run, color, tty }, second);
        const comparable = t1.forged.length === 0 && t2.forged.length === 0;
        if (
          comparable &&
          v.verdict !== 'failure' &&
          (second.code !== result.code || second.stdout !== result.stdout || second.stderr !== result.stderr)
        ) {
          v = {
            verdict: 'failure',
            reason:
              `the answer changed after the cache was damaged ` +
              `(${t2.done.join('; ') || 'nothing damaged'}): exit ${result.code} → ${second.code}`,
          };
        }
        outcomes.push({ run, result: second, verdict: v, tampered: t2.done });
      }
    }
  } finally {
    if (!state.keepInputs) {
      if (plan.inputPath) rmSync(plan.inputPath, { force: true });
      if (plan.setupDir) rmSync(plan.setupDir, { recursive: true, force: true });
      for (const run of plan.runs) if (run.outFile) rmSync(run.outFile, { force: true });
    }
  }
  return { plan, env, tty, outcomes };
}

function saveFailure(state, iteration, res) {
  const dir = join(state.out, `seed-${state.seed}`, `iter-${iteration}`);
  mkdirSync(dir, { recursive: true });
  const name = res.plan.inputPath ? basename(res.plan.inputPath) : 'args.txt';
  if (res.plan.bytes) writeFileSync(join(dir, name), res.plan.bytes);
  writeFileSync(
    join(dir, 'run.json'),
    `${JSON.stringify(
      {
        seed: state.seed,
        iteration,
        replay: `npm run fuzz -- --seed ${state.seed} --replay-iteration ${iteration}`,
        seedInput: res.plan.seed,
        mutators: res.plan.applied,
        env: res.env,
        tty: res.tty,
        runs: res.outcomes.map((o) => ({
          argv: o.run.argv,
          tampered: o.tampered,
          verdict: o.verdict,
          code: o.result.code,
          stdout: o.result.stdout.slice(0, 20_000),
          stderr: o.result.stderr.slice(0, 20_000),
          crash: o.result.crash,
        })),
      },
      null,
      2,
    )}\n`,
  );
  return dir;
}

/** Runs the fuzzer; resolves to the summary. */
export async function runFuzz(options) {
  const o = { ...parseOptions([]), ...options };
  MAIN_JS = o.main ?? ENTRIES[o.entry ?? 'bundle'];
  if (o.bin) BIN = o.bin;
  const target = o.mode === 'spawn' ? BIN : MAIN_JS;
  // The tsc output beside the bundle that runs (a snapshot's own with --main): the config reader comes
  // from the same sources as the CLI under test.
  const dist = o.main ? dirname(dirname(o.main)) : join(ROOT, 'dist');
  if (!o.planOnly && !existsSync(target))
    usage(`${relative(ROOT, target) || target} not found: run \`npm run build\` first`);
  if (o.mode === 'spawn' && !o.planOnly && !o.bin && !existsSync(ENTRIES.bundle))
    usage('dist/bundle/cli.cjs not found: run `npm run build` first');
  // The recording formats of --format come from the build's reader registry, even for --plan-only.
  if (!existsSync(join(dist, 'formats/recordings/registry.js')))
    usage(`${relative(ROOT, join(dist, 'formats/recordings/registry.js'))} not found: run \`npm run build\` first`);
  const ws = mkdtempSync(join(tmpdir(), 'toolsearch-fuzz-'));
  // The runs find no program on PATH (an `mcp:` command line a mutation made starts nothing); the
  // harmless MCP server of the config seeds is named by absolute paths, through these variables.
  const savedEnv = {
    PATH: process.env.PATH,
    FUZZ_NODE: process.env.FUZZ_NODE,
    FUZZ_MCP_SERVER: process.env.FUZZ_MCP_SERVER,
  };
  const savedCwd = process.cwd();
  mkdirSync(join(ws, 'empty-path'));
  process.env.PATH = join(ws, 'empty-path');
  setServerEnv();
  // In process, the runs' working directory is the workspace too (as spawned runs have it): a file
  // written where it was not asked for is found there.
  if (!o.planOnly) process.chdir(ws);
  const fixturesDir = join(ROOT, 'fixtures');
  const { corpus } = loadCorpus(fixturesDir);
  prepareWorkspace(ws, fixturesDir, corpus);
  const state = {
    seed: o.seed,
    ws,
    corpus,
    out: o.out,
    keepInputs: o.replay !== null,
    cacheDir: null,
    tampered: 0,
    guarded: 0,
    kind: o.kind,
    // toolsearch's own reader of client configs (the tsc output of the same sources as the bundle).
    // `--format` values: every recording format of the build under test (its reader registry).
    transcriptFormats: (await import(join(dist, 'formats/recordings/registry.js'))).FORMAT_CHOICES,
    reader: o.planOnly
      ? null
      : {
          ...(await import(join(dist, 'io/parse.js'))),
          ...(await import(join(dist, 'formats/mcp/client-config.js'))),
        },
  };
  if (o.cacheTamper) state.cacheDir = join(ws, 'cache');
  const summary = {
    seed: o.seed,
    mode: o.mode,
    cacheTamper: o.cacheTamper,
    tampered: 0,
    guarded: 0,
    target: relative(ROOT, target).startsWith('..') ? target : relative(ROOT, target),
    iterations: 0,
    runs: 0,
    results: 0,
    errors: 0,
    failures: 0,
    durationMs: 0,
    byCommand: {},
    errorKinds: {},
    failed: [],
  };
  // Interrupted: remove the workspace (and the workers end with the process).
  const onSignal = (signal) => {
    if (!o.keep) rmSync(ws, { recursive: true, force: true });
    process.stderr.write(`fuzz: interrupted after ${summary.iterations} iterations\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // The runs read the workspace's copies only (the repository's fixtures, shared with others, may change meanwhile).
  const fixturesBefore = treeHashes(join(ws, 'fixtures'));
  const pool =
    o.mode === 'spawn' ? new SpawnPool(o.workers, o.timeout * 1000, ws) : new InProcPool(o.workers, o.timeout * 1000);
  const t0 = Date.now();
  const log = (s) => o.quiet || process.stderr.write(s);
  try {
    if (o.planOnly) {
      for (let i = o.start; i < o.start + o.iterations; i++) {
        const rng = iterationRng(o.seed, i);
        const plan = planIteration(rng, i, state);
        const { env, tty } = planEnv(rng);
        const digest = plan.bytes ? createHash('sha256').update(plan.bytes).digest('hex').slice(0, 16) : '-';
        const argv = plan.runs.map((r) =>
          r.argv.map((a) => JSON.stringify(a.split(ws).join('<ws>')).slice(0, 200)).join(' '),
        );
        process.stdout.write(
          `${i} ${plan.kind} ${plan.seed ?? '-'} ` +
            `[${plan.applied.join(',')}] ${digest} ${JSON.stringify(env)} ${tty} :: ${argv.join(' && ')}\n`,
        );
      }
      return summary;
    }
    if (o.replay !== null) {
      const res = await runIteration(state, pool, o.replay);
      const dir = saveFailure(state, o.replay, res);
      log(
        `iteration ${o.replay} (seed ${o.seed}): ${res.plan.kind} ` +
          `from ${res.plan.seed ?? '-'}; mutators ${res.plan.applied.join(', ') || '-'}\n`,
      );
      for (const { run, result, verdict, tampered } of res.outcomes) {
        if (tampered?.length) log(`\ncache damaged: ${tampered.join('; ')}`);
        log(`\n$ toolsearch ${run.argv.map((a) => JSON.stringify(a)).join(' ')}\n`);
        log(`exit ${result.code}${result.timedOut ? ' (timeout)' : ''} → ${verdict.verdict}: ${verdict.reason}\n`);
        log(
          `stdout: ${JSON.stringify(result.stdout.slice(0, 4000))}\nstderr:` +
            ` ${JSON.stringify(result.stderr.slice(0, 4000))}\n`,
        );
        if (result.crash) log(`crash: ${result.crash}\n`);
      }
      log(`\ninput and runs saved in ${dir}\n`);
      summary.iterations = 1;
      summary.runs = res.outcomes.length;
      for (const oc of res.outcomes)
        summary[
          `${oc.verdict.verdict === 'result' ? 'results' : oc.verdict.verdict === 'error' ? 'errors' : 'failures'}`
        ]++;
      return summary;
    }
    let next = o.start;
    const end = o.start + o.iterations;
    let lastReport = Date.now();
    // With --cache-tamper each driver has a cache of its own: a forged entry put back after its run is
    // never read by another driver's run meanwhile.
    const drive = async (k) => {
      const cacheDir = state.cacheDir ? join(state.cacheDir, `driver-${k}`) : null;
      while (next < end) {
        const iteration = next++;
        const res = await runIteration(state, pool, iteration, cacheDir);
        summary.iterations++;
        let failed = false;
        for (const { run, verdict } of res.outcomes) {
          summary.runs++;
          const cmd = COMMANDS.has(run.argv[0]) ? run.argv[0] : '(other)';
          const c = (summary.byCommand[cmd] ??= { runs: 0, results: 0, errors: 0, failures: 0 });
          c.runs++;
          if (verdict.verdict === 'result') summary.results++, c.results++;
          else if (verdict.verdict === 'error') {
            summary.errors++;
            c.errors++;
            const key = `${cmd}: ${errorKind(verdict.reason)}`;
            summary.errorKinds[key] = (summary.errorKinds[key] ?? 0) + 1;
          } else {
            summary.failures++;
            c.failures++;
            failed = true;
            log(
              `FAILURE iteration ${iteration}: ${verdict.reason}\n  $ ` +
                `toolsearch ${run.argv.map((a) => JSON.stringify(a)).join(' ')}\n`,
            );
          }
        }
        if (failed) {
          const dir = saveFailure(state, iteration, res);
          summary.failed.push({
            iteration,
            reasons: res.outcomes.filter((x) => x.verdict.verdict === 'failure').map((x) => x.verdict.reason),
            saved: dir,
            replay: `npm run fuzz -- --seed ${o.seed} --replay-iteration ${iteration}`,
          });
        }
        if (Date.now() - lastReport > 30_000) {
          lastReport = Date.now();
          log(
            `… ${summary.iterations}/${o.iterations} iterations, ${summary.runs} ` +
              `runs: ${summary.results} results, ${summary.errors} ` +
              `errors, ${summary.failures} failures (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: o.workers }, (_, k) => drive(k)));
  } finally {
    await pool.close();
    summary.durationMs = Date.now() - t0;
    summary.tampered = state.tampered;
    summary.guarded = state.guarded;
    // Input files are never written: every fixture copy is as it was.
    const after = treeHashes(join(ws, 'fixtures'));
    const changed = [...fixturesBefore].filter(([k, v]) => after.get(k) !== v).map(([k]) => k);
    if (changed.length > 0) {
      summary.failures++;
      summary.failed.push({ iteration: null, reasons: [`input files were written: ${changed.join(', ')}`] });
    }
    // Nor is any file no run asked for: every input and output of an iteration was removed after it.
    if (!o.planOnly && o.replay === null) {
      const stray = [
        ...[...after.keys()].filter((k) => !fixturesBefore.has(k)).map((k) => `fixtures/${k}`),
        ...readdirSync(join(ws, 'out')).map((n) => `out/${n}`),
        ...readdirSync(join(ws, 'empty-path')).map((n) => `empty-path/${n}`),
        ...readdirSync(ws).filter((n) => !['fixtures', 'out', 'cache', 'empty-path'].includes(n)),
      ];
      if (stray.length > 0) {
        summary.failures++;
        summary.failed.push({ iteration: null, reasons: [`files written that no run asked for: ${stray.join(', ')}`] });
      }
    }
    process.chdir(savedCwd);
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (!o.keep) rmSync(ws, { recursive: true, force: true });
    else log(`workspace kept: ${ws}\n`);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return summary;
}

function printSummary(s, o) {
  const lines = [
    `fuzz: seed ${s.seed}, mode ${s.mode} (${s.target})${
      s.cacheTamper ? `, cache tampering (${s.tampered} files ` + `damaged)` : ''
    }: ${s.iterations} iterations, ${s.runs} runs in ${(s.durationMs / 1000).toFixed(1)} s`,
    `  client configs stopped after validation (they would have started something else): ${s.guarded}`,
    `  clean results ${s.results}, clean errors ${s.errors}, failures ${s.failures}`,
    ...Object.entries(s.byCommand)
      .sort()
      .map(
        ([cmd, c]) =>
          `    ${cmd.padEnd(9)} ${String(c.runs).padStart(6)} ` +
          `runs: ${c.results} results, ${c.errors} errors, ${c.failures} failures`,
      ),
    ...(o.stats
      ? [
          '  error kinds:',
          ...Object.entries(s.errorKinds)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 40)
            .map(([k, n]) => `    ${String(n).padStart(6)}  ${JSON.stringify(k).slice(1, -1)}`),
        ]
      : []),
    ...s.failed.map(
      (f) =>
        `  failure at iteration ${f.iteration}:` +
        ` ${f.reasons.join('; ')}${f.replay ? `\n    replay: ${f.replay}\n    saved:  ${f.saved}` : ''}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (o.json) process.stdout.write(`${JSON.stringify(s)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const o = parseOptions(process.argv.slice(2));
  const s = await runFuzz(o);
  if (o.replay === null && !o.planOnly) printSummary(s, o);
  process.exitCode = s.failures === 0 ? 0 : 1;
}
