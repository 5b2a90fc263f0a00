/**
 * What one fuzz iteration does: pick a seed input (a fixture), mutate it,
 * write it into the workspace next to the fixture it came from (so the
 * relative paths of suites keep working), and build the CLI runs over it.
 *
 * The workspace is a copy of `fixtures/`: the real fixtures are never
 * handed to the CLI, and the copies let the runner check that input files
 * are never written.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { HOSTILE_TEXT, mutate, PROTO_NAMES } from './mutate.mjs';

const KINDS = {
  catalog: ['catalogs', 'formats/catalogs', 'lint'],
  transcript: ['transcripts', 'formats/transcripts'],
  suite: ['suites', 'suites/failing', 'suites/invalid'],
};

function filesIn(root, dir, exts) {
  let names;
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return [];
  }
  return names
    .filter((n) => exts.includes(extname(n)) && statSync(join(root, dir, n)).isFile())
    .sort()
    .map((n) => `${dir}/${n}`);
}

/** The seed inputs, by kind: `{kind, rel, bytes}` with `rel` relative to the fixtures directory. */
export function loadCorpus(fixturesDir) {
  const corpus = [];
  for (const [kind, dirs] of Object.entries(KINDS)) {
    for (const dir of dirs) {
      for (const rel of filesIn(fixturesDir, dir, ['.json', '.jsonl', '.yaml', '.yml'])) {
        corpus.push({ kind, rel, bytes: readFileSync(join(fixturesDir, rel)) });
      }
    }
  }
  const queriesFile = join(fixturesDir, 'eval/demo-queries.jsonl');
  const queryLines = readFileSync(queriesFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  // Eval runs every scorer over every query: a short set keeps a run quick.
  corpus.push({
    kind: 'queries',
    rel: 'eval/fuzz-queries.jsonl',
    bytes: Buffer.from(`${queryLines.slice(0, 25).join('\n')}\n`),
  });
  const queries = queryLines.map((l) => JSON.parse(l).query);
  const batch = [
    ...queries
      .slice(0, 30)
      .map((q, i) => JSON.stringify(i % 3 === 0 ? { query: q, max_results: (i % 7) + 1 } : { query: q })),
    '{"query":"select:mcp__github__create_issue,__proto__,constructor,mcp__slack__send_message"}',
    '{"Query":"+slack message","MAX_RESULTS":2}',
    '{"query":"  "}',
    '{"query":"x","max_results":2.5}',
    'null',
    '',
    '{"query":"toString hasOwnProperty"}',
  ];
  corpus.push({ kind: 'batch', rel: 'eval/fuzz-batch.jsonl', bytes: Buffer.from(`${batch.join('\n')}\n`) });
  corpus.push({
    kind: 'args',
    rel: 'eval/fuzz-args.json',
    bytes: Buffer.from('{"query": "create issue", "max_results": 3}'),
  });
  corpus.push({
    kind: 'args',
    rel: 'eval/fuzz-args.json',
    bytes: Buffer.from('{"query": "select:mcp__github__create_issue,mcp__slack__send_message"}'),
  });
  return { corpus, queries };
}

/** Copies the fixtures into `ws/fixtures` and writes the generated seeds there. */
export function prepareWorkspace(ws, fixturesDir, corpus) {
  mkdirSync(ws, { recursive: true });
  cpSync(fixturesDir, join(ws, 'fixtures'), { recursive: true });
  for (const s of corpus) if (s.rel.startsWith('eval/fuzz-')) writeFileSync(join(ws, 'fixtures', s.rel), s.bytes);
  mkdirSync(join(ws, 'out'), { recursive: true });
}

const SEARCH_WORDS = [
  ['create', 'issue'],
  ['slack', 'message'],
  ['read', 'file'],
  ['+github', 'pull'],
  ['select:mcp__github__create_issue,__proto__,constructor'],
  ['proto'],
  ['constructor', 'toString'],
  ['red'],
  ['pwned', 'title'],
  ['x'],
  ['long', 'words'],
  ['tool'],
  ['++x', '+'],
];
const SELECT_NAMES = [
  'mcp__github__create_issue',
  'mcp__slack__send_message',
  'think',
  'nosuch_tool',
  'get_current_time',
  ...PROTO_NAMES,
];
const TRANSCRIPT_FORMATS = ['auto', 'eino', 'openai', 'openai-responses', 'anthropic'];
const CATALOG_FORMATS = ['auto', 'toolsearch', 'openai', 'anthropic', 'mcp', 'eino', 'request'];

function hostileWord(rng) {
  return rng.chance(0.5) ? rng.pick(HOSTILE_TEXT) : rng.pick(PROTO_NAMES);
}

function words(rng) {
  const w = [...rng.pick(SEARCH_WORDS)];
  if (rng.chance(0.2)) w.push(hostileWord(rng));
  return w;
}

function withExt(rel, rng) {
  if (!rng.chance(0.1)) return extname(rel);
  return rng.pick(['.json', '.yaml', '.jsonl', '.txt', '']);
}

/** Human or JSON: `{flag, output}` for a command with `--json`. */
function jsonFlag(rng) {
  return rng.chance(0.4) ? { flags: ['--json'], output: 'json' } : { flags: [], output: 'human' };
}

function catalogOptions(rng) {
  const o = [];
  if (rng.chance(0.1)) o.push('--catalog-format', rng.pick(CATALOG_FORMATS));
  if (rng.chance(0.05)) o.push('--prefix', rng.pick(['srv', '__proto__', 'a-b', '\u001b[31m']));
  return o;
}

/** Runs over a mutated catalog. */
function catalogRuns(rng, file, p) {
  const cat = ['-c', file, ...catalogOptions(rng)];
  const j = jsonFlag(rng);
  switch (
    rng.weighted([
      [5, 'search'],
      [2, 'args'],
      [2, 'batch'],
      [3, 'select'],
      [2, 'lint'],
      [2, 'simulate'],
      [1, 'eval'],
    ])
  ) {
    case 'search': {
      const extra = [];
      if (rng.chance(0.3)) extra.push('--explain');
      if (rng.chance(0.2)) extra.push('--all');
      if (rng.chance(0.2)) extra.push('-n', String(rng.pick([1, 3, 50])));
      if (rng.chance(0.1)) extra.push('--why', rng.pick(SELECT_NAMES));
      if (rng.chance(0.1)) extra.push('--expect-first', rng.pick(SELECT_NAMES));
      return [{ argv: ['search', ...cat, ...extra, ...j.flags, '--', ...words(rng)], output: j.output }];
    }
    case 'args':
      return [
        {
          argv: [
            'search',
            ...cat,
            '--args',
            JSON.stringify({ query: words(rng).join(' '), max_results: rng.range(1, 8) }),
            ...j.flags,
          ],
          output: j.output,
        },
      ];
    case 'batch':
      return [{ argv: ['search', ...cat, '--batch', p.batch], output: 'jsonl', batchFile: p.batch }];
    case 'select': {
      const names = Array.from({ length: rng.range(1, 4) }, () =>
        rng.chance(0.15) ? hostileWord(rng) : rng.pick(SELECT_NAMES),
      );
      const strict = rng.chance(0.2) ? ['--strict'] : [];
      return [{ argv: ['select', ...cat, ...strict, ...j.flags, '--', ...names], output: j.output }];
    }
    case 'lint':
      return [
        {
          argv: [
            'lint',
            ...cat,
            ...(rng.chance(0.3) ? ['--all'] : []),
            ...(rng.chance(0.2) ? ['--strict'] : []),
            ...j.flags,
          ],
          output: j.output,
        },
      ];
    case 'simulate': {
      const t = rng.pick(p.transcripts);
      return [
        {
          argv: [
            'simulate',
            t,
            ...cat,
            ...(rng.chance(0.4) ? ['--replay'] : []),
            ...(rng.chance(0.3) ? ['--mode', 'native'] : []),
            ...j.flags,
          ],
          output: j.output,
        },
      ];
    }
    default:
      return [
        {
          argv: [
            'eval',
            p.queries,
            ...cat,
            '--scorers',
            rng.pick(['spec', 'spec,regex', 'spec,bm25', 'spec,fuse,bm25,regex']),
            ...j.flags,
          ],
          output: j.output,
        },
      ];
  }
}

function transcriptRuns(rng, file, p) {
  const j = jsonFlag(rng);
  const argv = ['simulate', file];
  if (rng.chance(0.75)) argv.push('-c', p.demo);
  if (rng.chance(0.15)) argv.push('--format', rng.pick(TRANSCRIPT_FORMATS));
  if (rng.chance(0.3)) argv.push('--mode', 'native');
  if (rng.chance(0.4)) argv.push('--replay');
  if (rng.chance(0.1)) argv.push('--expect-same');
  if (rng.chance(0.1)) argv.push('--fail-on-violation');
  if (rng.chance(0.1)) argv.push('--static', rng.pick(['think', '__proto__', 'mcp__github__create_issue,constructor']));
  return [{ argv: [...argv, ...j.flags], output: j.output }];
}

function suiteRuns(rng, file, p, iteration) {
  const reporter = rng.pick(['human', 'human', 'json', 'junit', 'tap']);
  const output = reporter === 'json' ? 'json' : reporter === 'junit' ? 'xml' : reporter === 'tap' ? 'tap' : 'human';
  if (rng.chance(0.2)) {
    // The report to a file: written whole or not at all.
    const outFile = join(p.ws, 'out', `iter-${iteration}.${reporter === 'junit' ? 'xml' : 'out'}`);
    return [
      {
        argv: ['test', file, '--reporter', reporter, '--output', outFile],
        output: 'none',
        outFile,
        reportOutput: output,
      },
    ];
  }
  if (rng.chance(0.1)) return [{ argv: ['test', file, '--update'], output: 'human', writesInput: true }];
  return [{ argv: ['test', file, '--reporter', reporter], output }];
}

function queriesRuns(rng, file, p) {
  const j = jsonFlag(rng);
  return [
    {
      argv: ['eval', file, '-c', p.demo, '--scorers', rng.pick(['spec', 'spec,regex', 'spec,bm25']), ...j.flags],
      output: j.output,
    },
  ];
}

function batchRuns(rng, file, p) {
  if (rng.chance(0.5)) return [{ argv: ['search', '-c', p.demo, '--batch', file], output: 'jsonl', batchFile: file }];
  return [{ argv: ['search', '-c', p.demo, '--batch', '-'], output: 'jsonl', batchFile: file, stdinFile: file }];
}

function argsRuns(rng, file, p, _i, bytes) {
  const j = jsonFlag(rng);
  const extra = rng.chance(0.3) ? ['--explain'] : [];
  // Arguments travel as argv (a string): NUL cannot, and Linux caps one argument at 128 KiB.
  const args = bytes.toString('utf8').replace(/\0/g, '').slice(0, 100_000);
  return [{ argv: ['search', '-c', p.demo, ...extra, ...j.flags, '--args', args], output: j.output }];
}

/** Hostile command lines over the intact demo catalog. */
function argvRuns(rng, p) {
  const j = jsonFlag(rng);
  const choices = [
    () => ['search', '-c', p.demo, ...j.flags, '--', hostileWord(rng), ...words(rng)],
    () => ['select', '-c', p.demo, ...j.flags, '--', hostileWord(rng), rng.pick(SELECT_NAMES)],
    () => [
      'search',
      '-c',
      p.demo,
      '-n',
      rng.pick(['0', '-1', 'abc', '1e3', '99999999999999999999', '', '\u001b[31m']),
      'x',
    ],
    () => ['simulate', p.transcriptsFixed, '--mode', rng.pick(['x', 'native', '\u001b]0;t\u0007'])],
    () => ['search', '-c', hostileWord(rng), 'x'],
    () => [rng.pick(['serach', '\u001b[2J', 'help', '--nope']), 'x'],
    () => [
      'search',
      '-c',
      p.demo,
      '--expect-exact',
      `${hostileWord(rng)},mcp__github__create_issue`,
      'create',
      'issue',
    ],
  ];
  const argv = rng.pick(choices)();
  return [{ argv, output: argv.includes('--json') ? 'json' : 'human' }];
}

/** A command line can carry no NUL byte (the OS ends the argument there): drop them, in both modes alike. */
function realArgv(runs) {
  for (const r of runs) r.argv = r.argv.map((a) => a.replace(/\0/g, ''));
  return runs;
}

/**
 * The iteration's plan: `{kind, seed, applied, inputPath, bytes, runs}`;
 * `inputPath` is null when the iteration mutates no file.
 */
export function planIteration(rng, iteration, state) {
  const { corpus, ws } = state;
  const kind = rng.weighted([
    [34, 'catalog'],
    [26, 'transcript'],
    [12, 'suite'],
    [7, 'queries'],
    [8, 'batch'],
    [8, 'args'],
    [5, 'argv'],
  ]);
  const p = {
    ws,
    demo: join(ws, 'fixtures/catalogs/demo.yaml'),
    batch: join(ws, 'fixtures/eval/fuzz-batch.jsonl'),
    queries: join(ws, 'fixtures/eval/fuzz-queries.jsonl'),
    transcripts: [
      'keyword-search-then-call.json',
      'select-search.json',
      'keyword-search-then-call.openai.json',
      'redundant-select.json',
    ].map((f) => join(ws, 'fixtures/transcripts', f)),
    transcriptsFixed: join(ws, 'fixtures/transcripts/keyword-search-then-call.json'),
  };
  if (kind === 'argv')
    return { kind, seed: null, applied: [], inputPath: null, bytes: null, runs: realArgv(argvRuns(rng, p)) };
  const seeds = corpus.filter((s) => s.kind === kind);
  // Small seeds run fast: prefer them two to one over the 50–100 kB demo files.
  const small = seeds.filter((s) => s.bytes.length < 20_000);
  const seed = small.length > 0 && small.length < seeds.length && rng.chance(0.6) ? rng.pick(small) : rng.pick(seeds);
  const { bytes, applied } = mutate(seed.bytes, rng, {
    corpus: corpus.filter((s) => s.kind === kind || rng.chance(0.2)),
  });
  const ext = withExt(seed.rel, rng);
  const inputPath = join(
    ws,
    'fixtures',
    dirname(seed.rel),
    `fuzz-${iteration}-${basename(seed.rel, extname(seed.rel))}${ext}`,
  );
  const make = {
    catalog: catalogRuns,
    transcript: transcriptRuns,
    suite: suiteRuns,
    queries: queriesRuns,
    batch: batchRuns,
    args: argsRuns,
  }[kind];
  const runs = make(rng, inputPath, p, iteration, bytes);
  const twin = rng.chance(0.25) ? jsonTwin(runs[0]) : null;
  if (twin) runs.push(twin);
  // Catalog runs read the batch from the fixed file; batch runs read the mutated one.
  for (const r of runs) if (r.batchFile === inputPath || r.stdinFile === inputPath) r.batchBytes = bytes;
  return {
    kind,
    seed: seed.rel,
    applied,
    inputPath: kind === 'args' ? null : inputPath,
    bytes,
    runs: realArgv(runs),
    rel: relative(ws, inputPath),
  };
}

/**
 * Random COLUMNS (or none), colors forced now and then (FORCE_COLOR wins
 * over NO_COLOR: the classifier then ignores our own SGR color sequences)
 * and, in-process only, a TTY flag.
 */
export function planEnv(rng) {
  const env = { NO_COLOR: '1' };
  if (rng.chance(0.3)) env.COLUMNS = String(rng.pick([20, 40, 80, 200, 1000]));
  // Now and then a small (or invalid) bound, so the limit errors are fuzzed too.
  if (rng.chance(0.06))
    env[
      rng.pick(['TOOLSEARCH_MAX_BYTES', 'TOOLSEARCH_MAX_DEPTH', 'TOOLSEARCH_MAX_ALIASES', 'TOOLSEARCH_MAX_MESSAGES'])
    ] = rng.pick(['1', '3', '100', '0', 'x']);
  const color = rng.chance(0.15);
  if (color) env.FORCE_COLOR = '1';
  return { env, tty: rng.chance(0.2), color };
}

const JSON_COMMANDS = new Set(['search', 'select', 'simulate', 'lint', 'eval']);

/** The same command with `--json`: the text must come out intact and the document valid. */
export function jsonTwin(run) {
  const [cmd] = run.argv;
  if (run.output !== 'human' || !JSON_COMMANDS.has(cmd) || run.argv.includes('--batch')) return null;
  const dd = run.argv.indexOf('--');
  const argv = dd < 0 ? [...run.argv, '--json'] : [...run.argv.slice(0, dd), '--json', ...run.argv.slice(dd)];
  return { ...run, argv, output: 'json' };
}
