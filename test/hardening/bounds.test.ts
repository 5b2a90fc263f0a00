/**
 * Bounds the loaders enforce, and the clear error when one is exceeded:
 *
 * | bound | default | configured by |
 * |---|---|---|
 * | file size (and one `--batch` line) | 64 MiB | `Limits.maxBytes`, `TOOLSEARCH_MAX_BYTES` |
 * | nesting of arrays and objects | 1,000 levels | `Limits.maxDepth`, `TOOLSEARCH_MAX_DEPTH` |
 * | YAML alias dereferences | 1,000 | `Limits.maxAliases`, `TOOLSEARCH_MAX_ALIASES` |
 * | values reached through YAML aliases | 1,000,000 | `MAX_ALIAS_EXPANSION` (io/yaml.ts) |
 * | messages per transcript | 100,000 | `Limits.maxMessages`, `TOOLSEARCH_MAX_MESSAGES` |
 * | `tool_search` arguments nesting (Go) | 10,000 | the reference's `exceeded max depth` |
 *
 * Plus every other kind of broken file: empty, BOM, CRLF, invalid UTF-8,
 * duplicate keys, wrong top-level types, custom YAML tags. 50 MB files are
 * generated at test time (never committed); `HARDENING_BIG=1` adds the slow
 * 50 MB catalogs of 225,000 tools.
 */
import { openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../../src/cli/batch.js';
import { limitsFromEnv } from '../../src/cli/limits.js';
import { runToolSearch, ToolIndex } from '../../src/core/index.js';
import { loadCatalogFiles, loadTranscriptFile, parseText } from '../../src/formats/index.js';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/io/read.js';
import { DEMO, expectCleanError, inproc, ROOT, spawnCli, tempDir } from './helpers.js';
import { inputError } from '../formats/helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const nestedArrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const nestedObjects = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('the defaults', () => {
  it('are stated and used when nothing is configured', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxBytes: 64 * 1024 * 1024,
      maxDepth: 1000,
      maxAliases: 1000,
      maxAliasBytes: 64 * 1024 * 1024,
      maxMessages: 100_000,
      maxAliasValues: 1_000_000,
      maxMcpMessageBytes: 10 * 1024 * 1024,
      maxMcpPages: 10_000,
      maxReportBytes: 64 * 1024 * 1024,
    });
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
  });

  it('TOOLSEARCH_MAX_* configure them; a bad value is a usage error', () => {
    expect(
      limitsFromEnv({
        TOOLSEARCH_MAX_BYTES: '10',
        TOOLSEARCH_MAX_DEPTH: '3',
        TOOLSEARCH_MAX_ALIASES: '2',
        TOOLSEARCH_MAX_MESSAGES: '4',
        OTHER: 'x',
      }),
    ).toEqual({ maxBytes: 10, maxDepth: 3, maxAliases: 2, maxMessages: 4 });
    expect(limitsFromEnv({ TOOLSEARCH_MAX_DEPTH: '' })).toEqual({});
    for (const bad of ['0', '-1', '1.5', 'x', '1e3', '9'.repeat(16)])
      expect(() => limitsFromEnv({ TOOLSEARCH_MAX_DEPTH: bad })).toThrow(
        /TOOLSEARCH_MAX_DEPTH must be a positive integer/,
      );
  });

  it('the CLI applies them per run and restores the defaults after', async () => {
    const r = await inproc(['search', '-c', DEMO, 'x'], { env: { TOOLSEARCH_MAX_BYTES: '1000' } });
    expect(expectCleanError(r, DEMO)).toBe(
      `error: ${DEMO}: file too large: 55657 bytes (limit 1000; set TOOLSEARCH_MAX_BYTES to raise the limit)`,
    );
    const bad = await inproc(['search', '-c', DEMO, 'x'], { env: { TOOLSEARCH_MAX_DEPTH: 'deep' } });
    expect(expectCleanError(bad)).toBe('error: TOOLSEARCH_MAX_DEPTH must be a positive integer, got "deep"');
    expect((await inproc(['search', '-c', DEMO, 'x'])).code).toBe(0);
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
  });

  it('library loads take their limits as an option (no process-wide setting): unset fields are the defaults', () => {
    expect(inputError(() => parseText('x.json', '[[[1]]]', { limits: { maxDepth: 2 } })).headline).toBe(
      'x.json:1:3: nesting deeper than 2 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)',
    );
    expect(parseText('x.json', '[[[1]]]', { limits: { maxDepth: 3 } }).root.kind).toBe('array');
    expect(parseText('x.json', '[[[1]]]').root.kind).toBe('array');
  });
});

describe('nesting: 100,000 levels is a clean error, not a stack overflow', () => {
  it.each([
    ['JSON arrays', 'deep.json', nestedArrays(100_000)],
    ['JSON objects', 'deep-objects.json', nestedObjects(100_000)],
    ['YAML flow', 'deep.yaml', `tools: ${nestedArrays(100_000)}\n`],
    ['YAML flow maps', 'deep-maps.yaml', `${'{a: '.repeat(100_000)}1${'}'.repeat(100_000)}\n`],
    [
      'YAML blocks (1,500 levels)',
      'deep-block.yaml',
      `${Array.from({ length: 1500 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} v\n`,
    ],
    ['JSONL', 'deep.jsonl', `{"role":"user","content":"x"}\n${nestedArrays(100_000)}\n`],
  ])('%s', async (_what, name, text) => {
    const file = tmp.file(name, text);
    // A labeled query set is always JSON lines.
    const commands = [
      ['search', '-c', file, 'x'],
      ['simulate', file, '-c', DEMO],
      ['test', file],
      ...(name.endsWith('.json') ? [['eval', file, '-c', DEMO]] : []),
    ];
    for (const argv of commands) {
      const r = await inproc(argv);
      const line = expectCleanError(r, file);
      expect(line).toMatch(/nesting deeper than 1000 levels/);
      expect(line).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
    }
  });

  it('YAML: 3,000,000 levels of flow or compact nesting (6 MB) fail fast, at the level past the limit', () => {
    // The yaml library's parser took 80 s and 3 GB for the first of these; js-yaml stops one level past ours.
    for (const [text, column] of [
      [`tools: ${nestedArrays(3_000_000)}\n`, 1007],
      [`${'- '.repeat(3_000_000)}x\n`, 2001],
      [`${'? '.repeat(3_000_000)}x\n`, 2001],
    ] as const) {
      expect(inputError(() => parseText('deep.yaml', text)).headline).toBe(
        `deep.yaml:1:${column}: nesting deeper than 1000 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)`,
      );
    }
    // A mapping can open no other on its own line: the second key is the error, whatever the depth.
    expect(inputError(() => parseText('deep.yaml', `${'a: '.repeat(3_000_000)}x\n`)).headline).toBe(
      'deep.yaml:1:5: invalid YAML: bad indentation of a mapping entry',
    );
  });

  it('exactly 1,000 levels load; 1,001 do not', () => {
    // The tools list is level 2 and a tool level 3: parameters nest 997 more levels.
    const params = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const at = (n: number): string => `{"tools": [{"name": "t", "parameters": ${params(n)}}]}`;
    expect(loadCatalogFiles([tmp.file('ok.json', at(997))]).tools).toHaveLength(1);
    expect(inputError(() => loadCatalogFiles([tmp.file('over.json', at(998))])).message).toBe(
      'nesting deeper than 1000 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)',
    );
  });

  it("tool_search arguments: the reference's own depth limit", async () => {
    const index = new ToolIndex([{ name: 'a', description: '' }]);
    const r = runToolSearch(index, `{"query":"a","x":${nestedArrays(100_000)}}`);
    // Go's text, as the reference reports it.
    expect(r).toEqual({
      ok: false,
      error: "failed to unmarshal tool search arguments: invalid character '[' exceeded max depth",
    });
    const cli = await inproc(['search', '-c', DEMO, '--batch', '-'], {
      stdin: `${nestedArrays(100_000)}\n{"query":"create issue","max_results":1}\n`,
    });
    expect(cli.code).toBe(0);
    expect(cli.stdout.split('\n')).toEqual([
      '{"schema_version":1,"error":"failed to unmarshal tool search arguments: ' +
        "invalid character '[' exceeded max depth\"}",
      '{"schema_version":1,"matches":["mcp__atlassian__createJiraIssue"]}',
      '',
    ]);
  });
});

describe('YAML aliases', () => {
  it('a billion laughs stops at the alias limit, quickly, with its location', async () => {
    const bomb = join(ROOT, 'fixtures/formats/catalogs/bomb.yaml');
    const r = await inproc(['search', '-c', bomb, 'lol']);
    expect(expectCleanError(r)).toBe(
      `error: ${bomb}:6:8: too many YAML aliases (more than 1000; set TOOLSEARCH_MAX_ALIASES to raise the limit)`,
    );
    expect(r.stderr).toContain('e: &e [*d,');
  });

  it('one huge anchor referenced many times stops at the expansion limit', () => {
    const big = `a: &a [${Array(20_000).fill('x').join(', ')}]\nb: [${Array(60).fill('*a').join(', ')}]\n`;
    expect(inputError(() => parseText('x.yaml', big)).message).toBe(
      'YAML aliases expand to more than 1000000 values (set TOOLSEARCH_MAX_ALIAS_VALUES to raise the limit)',
    );
  });

  it('the alias limit is configurable', () => {
    const few = 'a: &a [x]\nb: [*a, *a, *a]\n';
    expect(parseText('x.yaml', few).root.kind).toBe('object');
    expect(inputError(() => parseText('x.yaml', few, { limits: { maxAliases: 2 } })).headline).toBe(
      'x.yaml:2:13: too many YAML aliases (more than 2; set TOOLSEARCH_MAX_ALIASES to raise the limit)',
    );
  });
});

describe('messages per transcript', () => {
  it('more than the limit is a clean error at the first message too many', async () => {
    const lines = Array.from({ length: 100_001 }, (_, i) =>
      JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }),
    );
    const file = tmp.file('many.jsonl', `${lines.join('\n')}\n`);
    const r = await inproc(['simulate', file, '-c', DEMO]);
    expect(expectCleanError(r)).toBe(
      `error: ${file}:100001:1: too many messages: more than 100000 (set TOOLSEARCH_MAX_MESSAGES to raise the limit)`,
    );
    const few = tmp.file('few.jsonl', `${lines.slice(0, 20).join('\n')}\n`);
    expect(inputError(() => loadTranscriptFile(few, { limits: { maxMessages: 10 } })).headline).toBe(
      `${few}:11:1: too many messages: more than 10 (set TOOLSEARCH_MAX_MESSAGES to raise the limit)`,
    );
  });
});

describe('file size', () => {
  it('a file over 64 MiB is refused before it is read (a sparse 100 GB file too)', async () => {
    for (const size of [64 * 1024 * 1024 + 1, 100 * 1024 ** 3]) {
      const file = tmp.file(`huge-${size}.json`);
      const fd = openSync(file, 'w');
      ftruncateSync(fd, size);
      closeSync(fd);
      const r = await inproc(['search', '-c', file, 'x']);
      expect(expectCleanError(r)).toBe(
        `error: ${file}: file too large: ${size} bytes (limit 67108864; set TOOLSEARCH_MAX_BYTES to raise the limit)`,
      );
    }
  });

  it('a 50 MB catalog holding one 50 MB description loads within bounds (the built CLI, heap capped at 768 ' +
    'MB)', async () => {
    const file = tmp.file(
      'big-description.json',
      `{"tools":[{"name":"a","description":` +
        `"${'word '.repeat(10_000_000)}"},{"name":"b","description":"create issue"}]}`,
    );
    const r = await spawnCli(['search', '-c', file, 'create', 'issue', '--json'], {
      env: { NODE_OPTIONS: '--max-old-space-size=768' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).matches).toEqual(['b']);
  }, 60_000);

  it('50 MB of white space is an empty file; an error at the end of a 50 MB line shows a window around the ' +
    'caret', async () => {
    const blank = tmp.file('blank.json', ' '.repeat(50_000_000));
    expect(expectCleanError(await inproc(['search', '-c', blank, 'x']))).toBe(`error: ${blank}: empty file`);
    const cut = tmp.file('cut.json', `{"tools": [{"name": "a", "description": "${'word '.repeat(10_000_000)}"}`);
    const r = await inproc(['search', '-c', cut, 'x']);
    expect(expectCleanError(r)).toBe(`error: ${cut}:1:50000044: invalid JSON: unexpected end of input`);
    const [, excerpt, caret] = r.stderr.split('\n');
    expect(excerpt!.length).toBeLessThan(120);
    expect(excerpt!.endsWith('word "}')).toBe(true);
    expect(caret!.length).toBe(excerpt!.length + 1);
  }, 60_000);

  it.runIf(process.env.HARDENING_BIG === '1')(
    '50 MB catalogs of 225,000 tools (JSON and YAML) load within bounds',
    async () => {
      const tools: string[] = [];
      for (let n = 0; tools.length * 150 < 50_000_000; n++)
        tools.push(
          JSON.stringify({
            name: `tool_${n}`,
            description: `does thing number ${n} with some words about files and issues and messages `.repeat(1),
          }),
        );
      const json = tmp.file('big.json', `{"tools":[${tools.join(',')}]}`);
      const yaml = tmp.file('big.yaml', `tools:\n${tools.map((t) => `  - ${t}\n`).join('')}`);
      for (const file of [json, yaml]) {
        const r = await spawnCli(['search', '-c', file, 'thing', '--json'], {
          env: { NODE_OPTIONS: '--max-old-space-size=2048' },
        });
        expect(r.code, r.stderr).toBe(0);
      }
    },
    600_000,
  );
});

describe('--batch lines', () => {
  const index = new ToolIndex([{ name: 'create_issue', description: 'Create an issue' }]);

  it('a line over the size limit gets an error object and the batch goes on', async () => {
    let out = '';
    const chunks = [
      Buffer.from('{"query":"issue"}\n{"query":"'),
      Buffer.from('x'.repeat(50)),
      Buffer.from('x'.repeat(50)),
      Buffer.from('"}\n{"query":"create"}'),
    ];
    const n = await runBatch(
      index,
      (async function* () {
        yield* chunks;
      })(),
      (s) => (out += s),
      64,
    );
    expect(n).toBe(3);
    expect(out.split('\n')).toEqual([
      '{"schema_version":1,"matches":["create_issue"]}',
      '{"schema_version":1,"error":"line too long: more than 64 bytes (set TOOLSEARCH_MAX_BYTES to raise the limit)"}',
      '{"schema_version":1,"matches":["create_issue"]}',
      '',
    ]);
  });

  // Re-copying the pending bytes on every chunk (quadratic) took 45 s here; the
  // test timeout is the guard, no wall-clock assertion (speed is benchmarked).
  it('a 20 MB line read in 64 kB chunks is read without re-copying per chunk', { timeout: 30_000 }, async () => {
    // An unknown key: decoded (scanned), never scored, so the time is the reading.
    const line = Buffer.from(`{"query":"zzz","pad":"${'a'.repeat(20_000_000)}"}`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < line.length; i += 65_536) chunks.push(line.subarray(i, i + 65_536));
    chunks.push(Buffer.from('\n{"query":"issue"}\n'));
    let out = '';
    await runBatch(
      index,
      (async function* () {
        yield* chunks;
      })(),
      (s) => (out += s),
    );
    expect(out).toBe('{"schema_version":1,"matches":[]}\n{"schema_version":1,"matches":["create_issue"]}\n');
  });
});

describe('broken files of every other kind', () => {
  const catalog = (name: string, content: string | Buffer): string => tmp.file(name, content);

  it('empty files, white space and a lone byte-order mark: "empty file" for every input', async () => {
    for (const [name, content] of [
      ['e.json', ''],
      ['e.yaml', ' \n\t\r\n'],
      ['e.jsonl', Buffer.from([0xef, 0xbb, 0xbf])],
    ] as const) {
      const file = tmp.file(name, content);
      for (const argv of [
        ['search', '-c', file, 'x'],
        ['simulate', file, '-c', DEMO],
        ['test', file],
        ['eval', file, '-c', DEMO],
        ['lint', file],
      ]) {
        expect(expectCleanError(await inproc(argv))).toBe(`error: ${file}: empty file`);
      }
    }
  });

  it('an empty --batch input is an error (issue 27: empty input is an error), with no output', async () => {
    const r = await inproc(['search', '-c', DEMO, '--batch', '-'], { stdin: '' });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: <stdin>: empty file\n' });
  });

  it('a byte-order mark and CRLF line ends change nothing; errors count CRLF as one line break', async () => {
    const text = (await import('node:fs')).readFileSync(DEMO, 'utf8');
    const crlf = catalog(
      'demo-crlf.yaml',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.replace(/\n/g, '\r\n'))]),
    );
    const a = await inproc(['search', '-c', DEMO, 'create', 'issue', '--json']);
    const b = await inproc(['search', '-c', crlf, 'create', 'issue', '--json']);
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout).results).toEqual(JSON.parse(a.stdout).results);
    const broken = catalog('broken-crlf.json', '{\r\n  "tools": [\r\n    {"name": "a",}\r\n  ]\r\n}\r\n');
    expect(expectCleanError(await inproc(['search', '-c', broken, 'x']))).toMatch(
      new RegExp(`^error: ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:18: `),
    );
  });

  it('invalid UTF-8 is located at the first bad byte', async () => {
    const file = catalog(
      'bad.yaml',
      Buffer.concat([Buffer.from('tools:\n  - name: caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]),
    );
    expect(expectCleanError(await inproc(['lint', file]))).toBe(`error: ${file}:2:14: invalid UTF-8: byte 0xc3`);
  });

  it(
    'duplicate keys: an error at the second, naming the first (JSON and YAML, catalogs, transcripts, ' + 'suites)',
    async () => {
      const j = catalog('dup.json', '{"tools": [{"name": "a", "name": "b"}]}');
      expect(expectCleanError(await inproc(['search', '-c', j, 'x']))).toBe(
        `error: ${j}:1:26: duplicate key "name" (first at 1:13)`,
      );
      const y = catalog('dup.yaml', 'tools:\n  - name: a\n    name: b\n');
      expect(expectCleanError(await inproc(['search', '-c', y, 'x']))).toBe(
        `error: ${y}:3:5: duplicate key "name" (first at 2:5)`,
      );
      const t = catalog('dup-t.json', '[{"role": "user", "content": "x", "role": "assistant"}]');
      expect(expectCleanError(await inproc(['simulate', t, '-c', DEMO]))).toBe(
        `error: ${t}:1:35: duplicate key "role" (first at 1:3)`,
      );
      const s = catalog('dup-s.yaml', `catalog: ${DEMO}\ncatalog: ${DEMO}\ncases: []\n`);
      expect(expectCleanError(await inproc(['test', s]))).toBe(
        `error: ${s}:2:1: duplicate key "catalog" (first at 1:1)`,
      );
    },
  );

  it('wrong top-level types: a clean, located error for every kind of input', async () => {
    for (const value of ['null', '42', '"text"', 'true', '{}', '[]', '[1]']) {
      const file = tmp.file('top.json', value);
      for (const argv of [
        ['search', '-c', file, 'x'],
        ['simulate', file, '-c', DEMO],
        ['test', file],
        ['eval', file, '-c', DEMO],
        ['lint', file],
      ]) {
        const r = await inproc(argv);
        // An empty list is a catalog without tools: the reference's construction error, which has no position.
        if (r.stderr.startsWith('error: tools is required')) expect(['[]', '{"tools": []}']).toContain(value);
        // An empty list is also the reference's empty conversation: one model call, replayed (issue 28).
        else if (argv[0] === 'simulate' && value === '[]') {
          expect(r.code).toBe(0);
          expect(r.stdout).toContain('conversation: empty, the reference replays it as one model call');
        } else expectCleanError(r, file);
      }
    }
  });

  it('custom YAML tags are refused at the tag', async () => {
    // The caret goes under the tag's first character (`!!binary`, not its second `!`).
    for (const [value, shown] of [
      ['!important read this', '!important'],
      ['!!binary aGVsbG8=', '!!binary'],
      ['!!set {a, b}', '!!set'],
      ['!!omap [a: 1]', '!!omap'],
      ['!!timestamp 2001-12-14', '!!timestamp'],
      ['!<tag:x.org,2000:t> v', 'tag:x.org,2000:t'],
    ]) {
      const file = tmp.file('tag.yaml', `tools:\n  - name: a\n    description: ${value}\n`);
      expect(expectCleanError(await inproc(['search', '-c', file, 'x']))).toBe(
        `error: ${file}:3:18: unsupported YAML tag ${JSON.stringify(shown)} (quote the value if it is text)`,
      );
    }
  });
});

beforeAll(() => {
  writeFileSync(join(tmp.dir, 'README'), 'generated by test/hardening/bounds.test.ts\n');
});
