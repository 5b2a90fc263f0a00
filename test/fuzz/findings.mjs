/**
 * Issue 27's inputs, generated (not mutated): what the adversarial review found crashing, hanging or writing
 * where it should not, at random sizes and in random shapes. One-line files (minified catalogs, request bodies
 * and suites with an unknown key per item), huge arrays (a Claude Code continuation line, a Responses message,
 * a native search naming every tool, a catalog of many tools), deep strings inside strings (JSON text nested
 * hundreds of thousands of levels in a provider-executed call's input, JSON encoded in JSON encoded in JSON),
 * many files (a directory or glob of thousands of sessions, parts or suites), symbolic links (to a file, to a
 * directory, dangling, a loop), glob characters in names (`run[1].json` beside `run1.json`, `*`, `?`, `{a,b}`),
 * empty inputs (empty, blank, a byte-order mark; as files and on stdin), an invalid suite whose `-o` is its own
 * catalog, reports of many tools × many calls, long eval queries.
 *
 * An iteration of this kind writes a directory `fixtures/fuzz-<iteration>-findings/` (files, hard links, symbolic
 * links: `setup`, plain data so that `--plan-only` shows it) and removes it afterwards; every file in it is an
 * input, so none may change (fuzz.mjs hashes them around each run).
 */
import { join } from 'node:path';

const line = (o) => JSON.stringify(o);

/** The items in an order drawn from `rng`. */
function shuffle(rng, items) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const k = rng.int(i + 1);
    [a[i], a[k]] = [a[k], a[i]];
  }
  return a;
}
const BOM = '\ufeff';

/** A size: mostly small, sometimes past where a spread overflowed Node's default stack (about 120,000). */
function size(rng, big = 150_000) {
  return rng.weighted([
    [5, rng.range(0, 50)],
    [4, rng.range(50, 3000)],
    [2, rng.range(3000, 25_000)],
    [1, big],
  ]);
}

const HELLO = line([
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
]);

function tool(rng, i, shape) {
  const name = rng.chance(0.05) ? `t${i}\u001b[31m` : `t${i}`;
  switch (shape) {
    case 'openai':
      return { type: 'function', function: { name, description: `does ${i} é😀`, parameters: {} }, bogus: i };
    case 'anthropic':
      return { name, description: 'é😀', input_schema: { type: 'object' }, defer_loading: i % 2 === 0, bogus: i };
    case 'mcp':
      return { name, description: 'é😀', inputSchema: { type: 'object' }, bogus: i };
    default:
      return { name, description: `does ${i} é😀`, parameters: {}, bogus: i };
  }
}

/** A minified catalog, one line, an unknown key per tool. */
function oneLineCatalog(rng, n) {
  const shape = rng.pick(['toolsearch', 'openai', 'anthropic', 'mcp']);
  const tools = Array.from({ length: n }, (_, i) => tool(rng, i, shape));
  if (shape === 'openai' || shape === 'anthropic') return { shape, text: line({ model: 'm', tools }) };
  return { shape, text: line({ tools }) };
}

/** A Claude Code session whose last assistant line continues message msg_1 with `n` blocks. */
function claudeCode(n) {
  const base = { sessionId: 's' };
  return [
    line({ ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'hi' } }),
    line({
      ...base,
      type: 'assistant',
      uuid: 'u2',
      parentUuid: 'u1',
      message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'a' }] },
    }),
    line({
      ...base,
      type: 'assistant',
      uuid: 'u3',
      parentUuid: 'u2',
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: Array.from({ length: n }, () => ({ type: 'text', text: 'b' })),
      },
    }),
  ].join('\n');
}

function responses(n) {
  const content = Array.from({ length: n }, () => ({ type: 'output_text', text: 'b' }));
  return line({
    model: 'm',
    input: [
      { role: 'user', content: 'hi' },
      { type: 'message', role: 'assistant', content },
    ],
  });
}

/** An Anthropic body: `n` deferred tools, one search naming all of them, `calls` model calls after it. */
function nativeSearch(n, calls, unknownKeys) {
  const names = Array.from({ length: n }, (_, i) => `t${i}`);
  const tools = names.map((name) => ({
    name,
    description: 'd',
    input_schema: { type: 'object' },
    defer_loading: true,
    ...(unknownKeys ? { bogus: 1 } : {}),
  }));
  const messages = [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'c1', name: 'tool_search', input: { query: `select:${names.join(',')}` } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: line({ matches: names }) }] },
  ];
  for (let i = 0; i < calls; i++) {
    messages.push({ role: 'assistant', content: `step ${i}` }, { role: 'user', content: 'go on' });
  }
  messages.push({ role: 'assistant', content: 'ok' });
  return line({ model: 'm', system: 's', max_tokens: 1, tools, messages });
}

/** Text of JSON `depth` levels deep (arrays or objects), or JSON encoded in JSON `depth` times. */
function deepText(rng, depth) {
  switch (rng.pick(['array', 'object', 'encoded', 'unclosed'])) {
    case 'array':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    case 'unclosed':
      return '['.repeat(depth);
    default: {
      let s = line({ query: 'slack send' });
      for (let i = 0; i < Math.min(depth, 12); i++) s = line({ query: s });
      return s;
    }
  }
}

/** An AI SDK recording with a provider-executed search whose input is the given text. */
function aiSdkDeep(text) {
  return line([
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'tool_search', input: text, providerExecuted: true },
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'tool_search',
          providerExecuted: true,
          output: { type: 'json', value: [{ type: 'tool_reference', toolName: 'mcp__slack__send_message' }] },
        },
      ],
    },
  ]);
}

const EMPTY = ['', '\n', '\n\n  \n', BOM, `${BOM}\n`, ' ', '\t\n'];

function suiteText(catalog, bad) {
  return (
    `catalog: ${catalog}\n${bad ? 'bogus_key: 1\n' : ''}cases:\n  - name: a\n    query: slack send\n` +
    '    includes: [mcp__slack__send_message]\n'
  );
}

const SCENARIOS = [
  'one-line-catalog',
  'one-line-body',
  'one-line-suite',
  'huge-array',
  'deep-string',
  'many-files',
  'symlinks',
  'glob-names',
  'empty',
  'output-is-input',
  'report-size',
  'long-query',
];

/**
 * The plan of one iteration of issue 27's inputs: `{scenario, dir, setup, runs}`. `setup` lists
 * `{path, text}` (a file), `{path, link}` (a symbolic link), `{path, hardlinks: [names]}` (links to `path`),
 * `{dir}`; paths are absolute, inside `dir`.
 */
export function findingsPlan(rng, iteration, p) {
  const dir = join(p.ws, 'fixtures', `fuzz-${iteration}-findings`);
  const at = (name) => join(dir, name);
  const setup = [{ dir }];
  const file = (name, text) => {
    setup.push({ path: at(name), text });
    return at(name);
  };
  const json = rng.chance(0.5);
  const j = json ? ['--json'] : [];
  const out = json ? 'json' : 'human';
  const scenario = rng.pick(SCENARIOS);
  const runs = [];
  switch (scenario) {
    case 'one-line-catalog': {
      const { text } = oneLineCatalog(rng, size(rng, 10_000));
      const c = file(`cat${rng.pick(['.json', '.json', '.yaml', ''])}`, text);
      const cmd = rng.pick(['search', 'lint', 'select']);
      const fmt = rng.chance(0.3) ? ['--catalog-format', rng.pick(['auto', 'data', 'openai', 'anthropic', 'mcp'])] : [];
      const tail = cmd === 'search' ? ['--', 'does', 'slack'] : cmd === 'select' ? ['--', 't1', 't2'] : [];
      runs.push({ argv: [cmd, '-c', c, ...fmt, ...j, ...tail], output: out });
      break;
    }
    case 'one-line-body': {
      const n = size(rng, 20_000);
      const b = file('body.json', nativeSearch(n, rng.range(0, 5), true));
      runs.push({
        argv: ['simulate', b, '--mode', 'native', '--lenient', '--no-tokens', ...j],
        output: out,
      });
      break;
    }
    case 'one-line-suite': {
      // A flow-style suite on one line: many cases, an unknown key in each.
      const n = size(rng, 20_000);
      const cases = Array.from({ length: n }, (_, i) => `{name: c${i}, query: slack send, bogus: ${i}}`);
      const s = file('suite.yaml', `{catalog: ${p.demo}, cases: [${cases.join(', ')}]}`);
      runs.push({ argv: ['test', s, '--reporter', json ? 'json' : 'human'], output: out });
      break;
    }
    case 'huge-array': {
      const n = size(rng);
      const kind = rng.pick(['claude-code', 'responses', 'native', 'catalog']);
      if (kind === 'catalog') {
        const c = file('many.json', oneLineCatalog(rng, Math.min(n, 40_000)).text);
        runs.push({ argv: ['search', '-c', c, ...j, '--', 'does', '1'], output: out });
      } else {
        const text =
          kind === 'claude-code'
            ? claudeCode(n)
            : kind === 'responses'
              ? responses(n)
              : nativeSearch(Math.min(n, 40_000), 0);
        const r = file(kind === 'claude-code' ? 'session.jsonl' : 'rec.json', text);
        const mode = kind === 'native' ? ['--mode', 'native'] : ['-c', p.demo];
        runs.push({ argv: ['simulate', r, ...mode, '--no-tokens', ...j], output: out });
      }
      break;
    }
    case 'deep-string': {
      const depth = rng.weighted([
        [3, rng.range(1, 200)],
        [2, rng.range(200, 20_000)],
        [1, 500_000],
      ]);
      const r = file('deep.ai-sdk.json', aiSdkDeep(deepText(rng, depth)));
      const env = rng.chance(0.3) ? { TOOLSEARCH_MAX_DEPTH: String(rng.pick([1, 5, 64, 100000])) } : {};
      runs.push({ argv: ['simulate', r, '-c', p.demo, '--mode', 'native', '--no-tokens', ...j], output: out, env });
      break;
    }
    case 'many-files': {
      const n = rng.weighted([
        [4, rng.range(1, 100)],
        [2, rng.range(100, 1500)],
      ]);
      const what = rng.pick(['sessions', 'parts', 'suites']);
      const sub = at(what);
      setup.push({ dir: sub });
      const ext = what === 'suites' ? '.yaml' : '.json';
      const first = join(sub, `f0${ext}`);
      const content = what === 'suites' ? suiteText(p.demo, rng.chance(0.1)) : what === 'parts' ? p.partText : HELLO;
      setup.push({ path: first, text: content });
      setup.push({ path: first, hardlinks: Array.from({ length: n - 1 }, (_, i) => join(sub, `f${i + 1}${ext}`)) });
      const arg = rng.chance(0.5) ? sub : `${sub}/*${ext}`;
      if (what === 'sessions')
        runs.push({ argv: ['simulate', arg, '-c', p.demo, '--jobs', '1', '--no-tokens', ...j], output: out });
      else if (what === 'parts') runs.push({ argv: ['aggregate', arg, ...j], output: out });
      else runs.push({ argv: ['test', arg, '--reporter', json ? 'json' : 'human'], output: out });
      break;
    }
    case 'symlinks': {
      const what = rng.pick(['sessions', 'parts', 'suites']);
      const ext = what === 'suites' ? '.yaml' : '.json';
      const content = what === 'suites' ? suiteText(p.demo, false) : what === 'parts' ? p.partText : HELLO;
      const sub = at('in');
      setup.push({ dir: sub }, { dir: at('elsewhere') });
      setup.push({ path: join(sub, `a${ext}`), text: content });
      setup.push({ path: at(`elsewhere/b${ext}`), text: content });
      for (const k of shuffle(rng, ['file', 'dir', 'dangling', 'loop', 'self', 'same']).slice(0, rng.range(1, 6))) {
        if (k === 'file') setup.push({ path: join(sub, `to-b${ext}`), link: at(`elsewhere/b${ext}`) });
        if (k === 'dir') setup.push({ path: join(sub, 'to-elsewhere'), link: at('elsewhere') });
        if (k === 'dangling') setup.push({ path: join(sub, `nowhere${ext}`), link: at(`missing${ext}`) });
        if (k === 'loop') setup.push({ path: join(sub, 'up'), link: dir });
        if (k === 'self') setup.push({ path: join(sub, `self${ext}`), link: join(sub, `self${ext}`) });
        if (k === 'same') setup.push({ path: join(sub, `again${ext}`), link: join(sub, `a${ext}`) });
      }
      const arg = rng.pick([sub, `${sub}/*${ext}`, `${sub}/**/*${ext}`, join(sub, `to-b${ext}`)]);
      const flags = rng.chance(0.2) ? ['--fail-on-violation'] : [];
      if (what === 'sessions')
        runs.push({ argv: ['simulate', arg, '-c', p.demo, '--jobs', '1', '--no-tokens', ...flags, ...j], output: out });
      else if (what === 'parts') runs.push({ argv: ['aggregate', arg, ...j], output: out });
      else runs.push({ argv: ['test', arg, '--reporter', json ? 'json' : 'human'], output: out });
      break;
    }
    case 'glob-names': {
      const names = shuffle(rng, [
        'run[1].json',
        'run1.json',
        'a*b.json',
        'ab.json',
        '?.json',
        'x.json',
        '{a,b}.json',
        'a.json',
        'my session.json',
        '!(x).json',
        'run[!1].json',
      ]).slice(0, rng.range(1, 6));
      for (const n of names) file(n, rng.chance(0.15) ? '' : HELLO);
      const arg = rng.chance(0.7) ? at(rng.pick(names)) : `${dir}/${rng.pick(['*.json', 'run[1].json', '**'])}`;
      runs.push({ argv: ['simulate', arg, '-c', p.demo, '--jobs', '1', '--no-tokens', ...j], output: out });
      break;
    }
    case 'empty': {
      const text = rng.pick(EMPTY);
      const viaStdin = rng.chance(0.3);
      const kind = rng.pick(['catalog', 'recording', 'sessions', 'suite', 'part', 'queries', 'batch']);
      const ext =
        { catalog: '.json', recording: '.json', sessions: '.jsonl', suite: '.yaml', part: '.json' }[kind] ?? '.jsonl';
      const f = viaStdin ? '-' : file(`empty${ext}`, text);
      const stdin = viaStdin ? text : null;
      const fail = rng.chance(0.3) ? ['--fail-on-violation'] : [];
      const argv = {
        catalog: ['search', '-c', f, ...j, '--', 'x'],
        recording: ['simulate', f, '-c', p.demo, '--no-tokens', ...fail, ...j],
        sessions: ['simulate', f, '-c', p.demo, '--jsonl-input', 'sessions', '--no-tokens', ...fail, ...j],
        suite: ['test', f, '--reporter', json ? 'json' : 'human'],
        part: ['aggregate', f, ...j],
        queries: ['eval', f, '-c', p.demo, '--scorers', 'spec', ...j],
        batch: ['search', '-c', p.demo, '--batch', f],
      }[kind];
      if (kind === 'batch') runs.push({ argv, output: 'jsonl', batchBytes: Buffer.from(text), stdin });
      else runs.push({ argv, output: out, stdin });
      if (rng.chance(0.2)) runs.push({ argv: ['simulate', '-', '-c', '-', '--no-tokens'], output: 'human', stdin });
      if (rng.chance(0.2)) runs.push({ argv: ['test', '-', '--update'], output: 'human', stdin: suiteText(p.demo, 0) });
      break;
    }
    case 'output-is-input': {
      // An invalid suite (or a valid one) whose report is asked to replace its own catalog or itself.
      const cat = file('cat.json', line({ tools: [{ name: 'mcp__slack__send_message', description: 'send' }] }));
      const s = file('suite.yaml', suiteText(cat, rng.chance(0.6)));
      const reporter = rng.pick(['junit', 'json', 'tap', 'human']);
      const target = rng.pick([cat, s]);
      runs.push({
        argv: ['test', s, '-r', reporter, '-o', target, ...(rng.chance(0.2) ? ['--force'] : [])],
        output: 'none',
      });
      break;
    }
    case 'report-size': {
      // Many tools × many calls: bounded by TOOLSEARCH_MAX_REPORT_BYTES (small here), never by memory.
      const n = rng.range(10, 2000);
      const b = file('body.json', nativeSearch(n, rng.range(1, 200), false));
      const env = { TOOLSEARCH_MAX_REPORT_BYTES: String(rng.pick([1, 1000, 100_000, 5_000_000])) };
      const html = rng.chance(0.3) ? ['--html', '-'] : [];
      runs.push({
        argv: ['simulate', b, '--mode', 'native', '--no-tokens', ...(html.length ? html : j)],
        output: html.length ? 'html' : out,
        env,
      });
      break;
    }
    default: {
      // long-query: eval's fuse.js baseline over a long query.
      const q = 'slack '.repeat(rng.pick([10, 200, 40_000]));
      const f = file('queries.jsonl', `${line({ query: q, relevant: ['mcp__slack__send_message'] })}\n`);
      runs.push({ argv: ['eval', f, '-c', p.demo, '--scorers', 'spec,fuse', ...j], output: out });
    }
  }
  return { scenario, dir, setup, runs };
}
