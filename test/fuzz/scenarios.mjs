/**
 * What one fuzz iteration does: pick a seed input (a fixture), mutate it,
 * write it into the workspace next to the fixture it came from (so the
 * relative paths of suites keep working), and build the CLI runs over it.
 *
 * The workspace is a copy of `fixtures/`: the real fixtures are never
 * handed to the CLI, and the copies let the runner check that input files
 * are never written.
 *
 * Over 400 lines: one builder per kind of seed input, each with the CLI runs that use it.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { findingsPlan } from './findings.mjs';
import { configSeeds } from './mcp-configs.mjs';
import { HOSTILE_TEXT, mutate, PROTO_NAMES } from './mutate.mjs';

const KINDS = {
  catalog: ['catalogs', 'formats/catalogs', 'lint'],
  transcript: ['transcripts', 'formats/transcripts'],
  suite: ['suites', 'suites/failing', 'suites/invalid'],
};

/** The hostile fixtures (terminal escapes, HTML payloads), by the kind their name ends with. */
const HOSTILE_KINDS = [
  [/\.catalog\.json$/, 'catalog'],
  [/\.transcript\.json$/, 'transcript'],
  [/\.suite\.yaml$/, 'suite'],
  [/\.queries\.jsonl$/, 'queries'],
];

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
        // The MCP client config among the catalogs starts `npx`: never a seed (see mcp-configs.mjs).
        if (kind === 'catalog' && /mcpServers|"servers"/.test(readFileSync(join(fixturesDir, rel), 'utf8'))) continue;
        corpus.push({ kind, rel, bytes: readFileSync(join(fixturesDir, rel)) });
      }
    }
  }
  for (const rel of filesIn(fixturesDir, 'hostile', ['.json', '.jsonl', '.yaml'])) {
    const kind = HOSTILE_KINDS.find(([re]) => re.test(rel))?.[1];
    if (kind) corpus.push({ kind, rel, bytes: readFileSync(join(fixturesDir, rel)) });
  }
  // Bulk replay: aggregates of `simulate --aggregate` (for `aggregate`), and JSONL files of one session
  // per line (the whole files, and their first lines alone: small seeds run fast).
  for (const rel of filesIn(fixturesDir, 'bulk', ['.json']))
    corpus.push({ kind: 'aggregate', rel, bytes: readFileSync(join(fixturesDir, rel)) });
  for (const rel of filesIn(fixturesDir, 'bulk', ['.jsonl'])) {
    const bytes = readFileSync(join(fixturesDir, rel));
    corpus.push({ kind: 'sessions', rel, bytes });
    const first = bytes.toString('utf8').split('\n').slice(0, 3).join('\n');
    corpus.push({ kind: 'sessions', rel: `bulk/fuzz-first-${basename(rel)}`, bytes: Buffer.from(`${first}\n`) });
  }
  for (const c of configSeeds()) corpus.push({ kind: 'mcpconfig', ...c });
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
  for (const s of corpus) if (basename(s.rel).startsWith('fuzz-')) writeFileSync(join(ws, 'fixtures', s.rel), s.bytes);
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

/** The file an iteration's run writes (in the workspace's `out/`, removed after the iteration). */
function outPath(p, iteration, ext) {
  return join(p.ws, 'out', `iter-${iteration}.${ext}`);
}

/**
 * Now and then `--html <file>` (the page to a file, the report still on stdout): `{args, outFile?}`;
 * or `--html -` (`stdout: true`: the page alone on stdout).
 */
function htmlOption(rng, p, iteration, chance = 0.15) {
  if (!rng.chance(chance)) return { args: [] };
  if (rng.chance(0.25)) return { args: ['--html', '-'], stdout: true };
  const outFile = outPath(p, iteration, 'html');
  return { args: ['--html', outFile], outFile, reportOutput: 'html' };
}

/** A run with `--html`: the page where asked, the rest of the output as the run says. */
function withHtml(run, html) {
  if (html.stdout) return { ...run, argv: [...run.argv, ...html.args], output: 'html' };
  if (!html.outFile) return run;
  return { ...run, argv: [...run.argv, ...html.args], outFile: html.outFile, reportOutput: html.reportOutput };
}

function catalogOptions(rng) {
  const o = [];
  if (rng.chance(0.1)) o.push('--catalog-format', rng.pick(CATALOG_FORMATS));
  if (rng.chance(0.05)) o.push('--prefix', rng.pick(['srv', '__proto__', 'a-b', '\u001b[31m']));
  return o;
}

/** Runs over a mutated catalog. */
function catalogRuns(rng, file, p, iteration) {
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
      const html = htmlOption(rng, p, iteration);
      const run = {
        argv: [
          'simulate',
          t,
          ...cat,
          ...(rng.chance(0.4) ? ['--replay'] : []),
          ...(rng.chance(0.3) ? ['--mode', 'native'] : []),
          ...(rng.chance(0.5) ? ['--no-tokens'] : []),
          ...(html.stdout ? [] : j.flags),
        ],
        output: j.output,
      };
      return [withHtml(run, html)];
    }
    default: {
      const html = htmlOption(rng, p, iteration, 0.25);
      const run = {
        argv: [
          'eval',
          p.queries,
          ...cat,
          '--scorers',
          rng.pick(['spec', 'spec,regex', 'spec,bm25', 'spec,fuse,bm25,regex']),
          ...(html.stdout ? [] : j.flags),
        ],
        output: j.output,
      };
      return [withHtml(run, html)];
    }
  }
}

/** The flags of `simulate` about how a recording is read and replayed (single and bulk alike). */
export function replayFlags(rng, p) {
  const argv = [];
  if (rng.chance(0.75)) argv.push('-c', p.demo);
  if (rng.chance(0.15)) argv.push('--format', rng.pick(p.transcriptFormats));
  if (rng.chance(0.3)) argv.push('--mode', 'native');
  if (rng.chance(0.4)) argv.push('--replay');
  if (rng.chance(0.1)) argv.push('--expect-same');
  if (rng.chance(0.1)) argv.push('--fail-on-violation');
  if (rng.chance(0.1)) argv.push('--static', rng.pick(['think', '__proto__', 'mcp__github__create_issue,constructor']));
  if (rng.chance(0.15)) argv.push('--lenient');
  if (rng.chance(0.05)) argv.push('--sidechains');
  if (rng.chance(0.05)) argv.push('--search-tool', rng.pick(['ToolSearch', 'tool_search', '\u001b[31m']));
  if (rng.chance(0.1)) argv.push('--tool-format', 'anthropic');
  if (rng.chance(0.5)) argv.push('--no-tokens');
  else if (rng.chance(0.05)) argv.push('--tokenizer', 'cl100k_base');
  return argv;
}

/** A recording replayed alone, or in bulk beside intact ones (an aggregate over the sessions). */
function transcriptRuns(rng, file, p, iteration) {
  if (rng.chance(0.2)) return bulkRuns(rng, [file, ...rng.pick(p.bulkCompanions)], p, iteration);
  const j = jsonFlag(rng);
  const argv = ['simulate', file, ...replayFlags(rng, p)];
  const html = htmlOption(rng, p, iteration);
  if (html.stdout) return [withHtml({ argv }, html)];
  return [withHtml({ argv: [...argv, ...j.flags], output: j.output }, html)];
}

/**
 * Bulk replay (several recordings, or a JSONL file of sessions): the aggregate as text or JSON, one
 * line per session (`--jsonl`), the aggregate or the HTML page to a file. One worker thread mostly
 * (the runs already share the cores), two now and then.
 */
function bulkRuns(rng, files, p, iteration, stdin = null) {
  const argv = ['simulate', ...files, ...replayFlags(rng, p), '--jobs', rng.chance(0.1) ? '2' : '1'];
  if (rng.chance(0.1)) argv.push('--top', rng.pick(['1', '3', '0', 'x']));
  if (rng.chance(0.15)) argv.push('--jsonl-input', rng.pick(['auto', 'sessions', 'recording']));
  const shape = rng.weighted([
    [4, 'human'],
    [3, 'json'],
    [3, 'jsonl'],
    [2, 'aggregate'],
    [2, 'html'],
  ]);
  const run = { argv, output: 'human', ...(stdin ? { stdinFile: stdin } : {}) };
  if (shape === 'json') return [{ ...run, argv: [...argv, '--json'], output: 'json' }];
  if (shape === 'jsonl') return [{ ...run, argv: [...argv, '--jsonl'], output: 'sessions' }];
  if (shape === 'aggregate') {
    const outFile = outPath(p, iteration, 'json');
    return [{ ...run, argv: [...argv, '--aggregate', outFile], outFile, reportOutput: 'json' }];
  }
  if (shape === 'html') return [withHtml(run, htmlOption(rng, p, iteration, 1))];
  return [run];
}

/** A JSONL file of sessions (one whole recording per line): from the file, or on stdin. */
function sessionsRuns(rng, file, p, iteration) {
  if (rng.chance(0.3)) return bulkRuns(rng, ['-'], p, iteration, file);
  return bulkRuns(rng, [file], p, iteration);
}

/** `aggregate` over a mutated part (and now and then an intact one). */
function aggregateRuns(rng, file, p, iteration) {
  const argv = ['aggregate', file, ...(rng.chance(0.4) ? [p.part] : [])];
  if (rng.chance(0.15)) argv.push('--top', rng.pick(['1', '3', '0', '-2']));
  if (rng.chance(0.1)) argv.push('--fail-on-violation');
  if (rng.chance(0.1)) argv.push('--expect-same');
  const html = htmlOption(rng, p, iteration, 0.35);
  if (html.stdout) return [withHtml({ argv }, html)];
  const j = jsonFlag(rng);
  return [withHtml({ argv: [...argv, ...j.flags], output: j.output }, html)];
}

/**
 * An MCP client config as a catalog (`-c`) or for `import --config`. Its servers are the fuzzer's
 * harmless one or an unreachable URL; a mutated config that would start anything else is stopped
 * after validation (see mcp-configs.mjs and `guardConfigs` in fuzz.mjs).
 */
function mcpConfigRuns(rng, file, p, iteration) {
  const servers = [];
  if (rng.chance(0.35)) servers.push('--skip-failed');
  if (rng.chance(0.15)) servers.push('--server', rng.pick(['github', 'local', 'one', 'two,one', 'gihtub', '']));
  const timeout = ['--mcp-timeout', '5'];
  const j = jsonFlag(rng);
  switch (
    rng.weighted([
      [4, 'search'],
      [2, 'select'],
      [1, 'lint'],
      [1, 'simulate'],
      [3, 'import'],
    ])
  ) {
    case 'search':
      return [
        { argv: ['search', '-c', file, ...servers, ...timeout, ...j.flags, '--', ...words(rng)], output: j.output },
      ];
    case 'select': {
      const names = ['mcp__github__create_issue', 'mcp__local__list-issues', 'mcp__one__post_message', 'nosuch'];
      const pick = Array.from({ length: rng.range(1, 3) }, () => rng.pick(names));
      return [{ argv: ['select', '-c', file, ...servers, ...timeout, ...j.flags, '--', ...pick], output: j.output }];
    }
    case 'lint':
      return [{ argv: ['lint', '-c', file, ...servers, ...timeout, ...j.flags], output: j.output }];
    case 'simulate':
      return [
        {
          argv: ['simulate', rng.pick(p.transcripts), '-c', file, ...servers, ...timeout, '--no-tokens', ...j.flags],
          output: j.output,
        },
      ];
    default: {
      const argv = ['import', '--config', file, ...servers, '--timeout', '5'];
      const json = rng.chance(0.4);
      if (json) argv.push('--json');
      if (rng.chance(0.3)) {
        const outFile = outPath(p, iteration, json ? 'json' : 'yaml');
        return [{ argv: [...argv, '-o', outFile], output: 'human', outFile, reportOutput: json ? 'json' : 'catalog' }];
      }
      return [{ argv, output: json ? 'json' : 'catalog' }];
    }
  }
}

function suiteRuns(rng, file, p, iteration) {
  const reporter = rng.pick(['human', 'human', 'json', 'junit', 'tap', 'html']);
  const output = { json: 'json', junit: 'xml', tap: 'tap', html: 'html' }[reporter] ?? 'human';
  if (rng.chance(0.2)) {
    // The report to a file: written whole or not at all.
    const outFile = outPath(p, iteration, { junit: 'xml', html: 'html' }[reporter] ?? 'out');
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

function queriesRuns(rng, file, p, iteration) {
  const j = jsonFlag(rng);
  const html = htmlOption(rng, p, iteration, 0.2);
  const run = {
    argv: [
      'eval',
      file,
      '-c',
      p.demo,
      '--scorers',
      rng.pick(['spec', 'spec,regex', 'spec,bm25']),
      ...(html.stdout ? [] : j.flags),
    ],
    output: j.output,
  };
  return [withHtml(run, html)];
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
  const drawn = rng.weighted([
    [30, 'catalog'],
    [24, 'transcript'],
    [11, 'suite'],
    [6, 'queries'],
    [7, 'batch'],
    [7, 'args'],
    [4, 'argv'],
    [6, 'mcpconfig'],
    [4, 'sessions'],
    [4, 'aggregate'],
    [10, 'findings'],
  ]);
  // --kind: every iteration of one kind (the draw still made: the rest of the plan is the seed's)
  const kind = state.kind ?? drawn;
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
    // Intact recordings replayed in bulk beside a mutated one (a session that fails never stops the others).
    bulkCompanions: [
      ['keyword-search-then-call.claude-code.jsonl'],
      ['select-search.ai-sdk.json', 'redundant-select.otel.json'],
      ['accumulate-two-searches.langchain.json'],
      ['deferred-tool-called-too-early.openai-agents-py.json', 'required-keyword-search.call-log.jsonl'],
      [],
    ].map((l) => l.map((f) => join(ws, 'fixtures/transcripts', f))),
    part: join(ws, 'fixtures/bulk/part-2.json'),
    // `--format` values: the registry's list, from the build under test (fuzz.mjs loads it).
    transcriptFormats: state.transcriptFormats,
  };
  if (kind === 'argv')
    return { kind, seed: null, applied: [], inputPath: null, bytes: null, runs: realArgv(argvRuns(rng, p)) };
  if (kind === 'findings') {
    // Issue 27's inputs, generated whole (findings.mjs): files, links and directories written before the runs.
    const partText = corpus.find((s) => s.rel === 'bulk/part-2.json').bytes.toString('utf8');
    const f = findingsPlan(rng, iteration, { ...p, partText });
    return {
      kind,
      seed: f.scenario,
      applied: [],
      inputPath: null,
      bytes: null,
      runs: realArgv(f.runs),
      setup: f.setup,
      setupDir: f.dir,
    };
  }
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
    mcpconfig: mcpConfigRuns,
    sessions: sessionsRuns,
    aggregate: aggregateRuns,
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

const JSON_COMMANDS = new Set(['search', 'select', 'simulate', 'lint', 'eval', 'aggregate']);

/** The same command with `--json`: the text must come out intact and the document valid. */
export function jsonTwin(run) {
  const [cmd] = run.argv;
  if (run.output !== 'human' || !JSON_COMMANDS.has(cmd) || run.argv.includes('--batch')) return null;
  const dd = run.argv.indexOf('--');
  const argv = dd < 0 ? [...run.argv, '--json'] : [...run.argv.slice(0, dd), '--json', ...run.argv.slice(dd)];
  return { ...run, argv, output: 'json' };
}
