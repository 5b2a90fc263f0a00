import { describe, it } from 'vitest';
import { FX, DEMO, lines, run } from './helpers.js';

const SMALL = `${FX}/small.yaml`;

const CREATE_ISSUE_TABLE = [
  'keyword search "create issue" · limit 5 · 3 of 7 tools match',
  '#  tool                  score  description',
  '1  github__create_issue     20  Create a new issue in a GitHub repository.',
  '2  linear__createIssue      20  Create a Linear issue in a team.',
  '3  github__list_issues       5  List the issues of a repository, with filters.',
];

describe.concurrent('search', () => {
  it('ranks the dynamic tools for query words', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual(CREATE_ISSUE_TABLE);
    expect(r.code).toBe(0);
  });

  it('-n limits the results and says how many more match', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue', '-n', '1']);
    expect(lines(r.stdout)).toEqual([
      'keyword search "create issue" · limit 1 · 3 of 7 tools match',
      '#  tool                  score  description',
      '1  github__create_issue     20  Create a new issue in a GitHub repository.',
      '2 more beyond the limit of 1 (-n 3 returns all)',
    ]);
    expect(r.code).toBe(0);
  });

  it('--max-results is the long form of -n', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '--max-results', '2', '--json', 'create', 'issue']);
    expect(JSON.parse(r.stdout).matches).toEqual(['github__create_issue', 'linear__createIssue']);
  });

  it('--explain shows the rule, part and points of every keyword', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue', '--explain']);
    expect(lines(r.stdout)).toEqual([
      CREATE_ISSUE_TABLE[0],
      CREATE_ISSUE_TABLE[1],
      CREATE_ISSUE_TABLE[2],
      '     create  exact-part      create  +10',
      '     issue   exact-part      issue   +10',
      CREATE_ISSUE_TABLE[3],
      '     create  exact-part      create  +10',
      '     issue   exact-part      Issue   +10',
      CREATE_ISSUE_TABLE[4],
      '     create  no match                  0',
      '     issue   part-substring  issues   +5',
    ]);
  });

  it('--args takes the raw arguments as a model sent them (Go JSON rules: folded keys)', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '--args', '{"QUERY":"create issue","max_resultſ":2}']);
    expect(lines(r.stdout)).toEqual([
      'keyword search "create issue" · limit 2 · 3 of 7 tools match',
      '#  tool                  score  description',
      '1  github__create_issue     20  Create a new issue in a GitHub repository.',
      '2  linear__createIssue      20  Create a Linear issue in a team.',
      '1 more beyond the limit of 2 ("max_results": 3 returns all)',
    ]);
    expect(r.code).toBe(0);
  });

  it('--args with a non-positive max_results uses the default of 5', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '--args', '{"query":"create issue","max_results":0}', '--json']);
    expect(JSON.parse(r.stdout).max_results).toBe(5);
  });

  it.for([
    [
      '{"query":1}',
      'failed to unmarshal tool search arguments: json: cannot unmarshal number ' +
        'into Go struct field toolSearchArgs.query of type string',
    ],
    [
      '{"query":"x","max_results":2.5}',
      'failed to unmarshal tool search arguments: json: cannot unmarshal number 2.5 ' +
        'into Go struct field toolSearchArgs.max_results of type int',
    ],
    ['{"query":"x"} x', "failed to unmarshal tool search arguments: invalid character 'x' after top-level value"],
    ['', 'failed to unmarshal tool search arguments: unexpected end of JSON input'],
    ['{"query":"  "}', 'query is required'],
    ['null', 'query is required'],
  ] as const)('--args %j is bad input: exit 2 with the reference error text', async ([args, message], { expect }) => {
    const r = await run(['search', '-c', SMALL, '--args', args]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${message}\n`);
    expect(r.code).toBe(2);
  });

  it('a +required keyword excludes tools that miss it', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '+create', 'issue', 'linear']);
    expect(lines(r.stdout)).toEqual([
      'keyword search "+create issue linear" · limit 5 · 2 of 7 tools match',
      '#  tool                  score  description',
      '1  linear__createIssue      30  Create a Linear issue in a team.',
      '2  github__create_issue     20  Create a new issue in a GitHub repository.',
    ]);
  });

  it('no match is not an error', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'zzz']);
    expect(lines(r.stdout)).toEqual([
      'keyword search "zzz" · limit 5 · 0 of 7 tools match',
      'no tool matched: a keyword must appear in a name or a description (--why <tool> explains a tool)',
    ]);
    expect(r.code).toBe(0);
  });

  it('select: in a query is direct selection (order and duplicates kept, unknown names warned)', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'select:HTMLParser, nope,get_time,HTMLParser']);
    expect(lines(r.stdout)).toEqual([
      'direct selection "select:HTMLParser, nope,get_time,HTMLParser" · 2 of 4 names found',
      '#  tool        description',
      '1  HTMLParser  Parse HTML documents into a tree.',
      '2  HTMLParser  Parse HTML documents into a tree.',
    ]);
    expect(lines(r.stderr)).toEqual([
      'warning: skipped nope: not a dynamic tool',
      'warning: skipped get_time: a static tool, always visible and never selected',
    ]);
    expect(r.code).toBe(0);
  });

  it('--json keyword contract', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue', '-n', '2', '--json']);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      'schema_version',
      'engine',
      'query',
      'mode',
      'max_results',
      'matches',
      'results',
      'total_matches',
      'unknown',
      'static_included',
    ]);
    expect(j).toEqual({
      schema_version: 1,
      engine: 'eino',
      query: 'create issue',
      mode: 'keyword',
      max_results: 2,
      matches: ['github__create_issue', 'linear__createIssue'],
      results: [
        { name: 'github__create_issue', score: 20, description: 'Create a new issue in a GitHub repository.' },
        { name: 'linear__createIssue', score: 20, description: 'Create a Linear issue in a team.' },
      ],
      total_matches: 3,
      unknown: [],
      static_included: false,
    });
  });

  it('--json with --explain adds the per-keyword account', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'issue', '+list', '-n', '1', '--json', '--explain']);
    expect(JSON.parse(r.stdout).results).toEqual([
      {
        name: 'github__list_issues',
        score: 15,
        description: 'List the issues of a repository, with filters.',
        explain: [
          { keyword: 'issue', required: false, rule: 'part-substring', part: 'issues', points: 5 },
          { keyword: 'list', required: true, rule: 'exact-part', part: 'list', points: 10 },
        ],
      },
    ]);
  });

  it('--json: empty lists are [] (the reference encodes {"matches":null})', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'zzz', '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.matches).toEqual([]);
    expect(j.results).toEqual([]);
    expect(j.unknown).toEqual([]);
  });

  it('--json select contract', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      '--args',
      '{"query":"select:HTMLParser,nope","max_results":1}',
      '--json',
    ]);
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      query: 'select:HTMLParser,nope',
      mode: 'select',
      max_results: null,
      matches: ['HTMLParser'],
      results: [{ name: 'HTMLParser', score: null, description: 'Parse HTML documents into a tree.' }],
      total_matches: 1,
      unknown: ['nope'],
      static_included: false,
    });
    expect(r.stderr).toBe('warning: skipped nope: not a dynamic tool\n');
  });

  it('--all also searches static tools, clearly marked as beyond the reference', async ({ expect }) => {
    const plain = await run(['search', '-c', SMALL, 'time']);
    expect(lines(plain.stdout)[0]).toBe('keyword search "time" · limit 5 · 0 of 7 tools match');
    const r = await run(['search', '-c', SMALL, 'time', '--all']);
    expect(lines(r.stdout)).toEqual([
      'keyword search "time" · limit 5 · 1 of 8 tools match',
      'beyond the reference: static tools included (1 static + 7 dynamic searched)',
      '#  tool      score  kind    description',
      '1  get_time     10  static  Get the current time.',
    ]);
    const j = JSON.parse((await run(['search', '-c', SMALL, 'time', '--all', '--json'])).stdout);
    expect(j.static_included).toBe(true);
    expect(j.results).toEqual([{ name: 'get_time', score: 10, description: 'Get the current time.', static: true }]);
  });

  it('--why explains tools that were not returned', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      'create',
      'issue',
      '-n',
      '1',
      '--why',
      'github__list_issues,HTMLParser',
      '--why',
      'get_time',
    ]);
    expect(lines(r.stdout).slice(4)).toEqual([
      '',
      'why github__list_issues: rank 3 (score 5): beyond the limit of 1, max_results 3 would return it',
      '  name parts: github, list, issues',
      '    create  no match                 0',
      '    issue   part-substring  issues  +5',
      '',
      'why HTMLParser: not returned: no keyword matches its name or description (score 0)',
      '  name parts: HTML, Parser',
      '    create  no match    0',
      '    issue   no match    0',
      '',
      'why get_time: a static tool: always visible to the model, never searched (--all searches it)',
    ]);
    // A name the catalog lacks is a usage error (issue 13), with did-you-mean, as suites report it.
    const typo = await run(['search', '-c', SMALL, 'create', 'issue', '--why', 'Github__create_issue']);
    expect(typo).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --why: "Github__create_issue" is not a tool of the catalog (did you mean github__create_issue?)\n',
    });
  });

  it('--why: a required keyword that excludes, and the hyphen pitfall', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'search', '+slack', '--why', 'notion__search-pages']);
    expect(lines(r.stdout).slice(-6)).toEqual([
      '',
      'why notion__search-pages: not returned: the required keyword +slack does not match it',
      '  name parts: notion, search-pages',
      '    search  part-substring  search-pages  +5',
      '    +slack  no match                       0',
      '  note: the reference does not split names on "-": ' +
        '"search-pages" is one name part, so "search" scores 5, not 10',
    ]);
  });

  it('--why in --json', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      'create',
      'issue',
      '-n',
      '1',
      '--why',
      'github__list_issues',
      '--json',
    ]);
    expect(JSON.parse(r.stdout).why).toEqual([
      {
        name: 'github__list_issues',
        standing: 'beyond-limit',
        rank: 3,
        score: 5,
        excluded_by: null,
        parts: ['github', 'list', 'issues'],
        keywords: [
          { keyword: 'create', required: false, rule: 'none', part: null, points: 0 },
          { keyword: 'issue', required: false, rule: 'part-substring', part: 'issues', points: 5 },
        ],
        suggestions: [],
      },
    ]);
  });

  it('catalogs merge with repeated -c', async ({ expect }) => {
    const r = await run(['search', '-c', `${FX}/dup-a.yaml`, '-c', `${FX}/only-static.yaml`, 'first', '--json']);
    expect(JSON.parse(r.stdout).matches).toEqual(['a']);
  });

  it(
    '--prefix applies to MCP-shaped files only (others keep their names, ' +
      'with a warning); a server name with spaces is refused',
    async ({ expect }) => {
      const [mixed, bad] = await Promise.all([
        run([
          'search',
          '-c',
          `${FX}/mcp-tools.json`,
          '-c',
          `${FX}/dup-a.yaml`,
          '--prefix',
          'gh',
          'first',
          'issues',
          '--json',
        ]),
        run(['search', '-c', `${FX}/mcp-tools.json`, '--prefix', 'my server', 'x']),
      ]);
      expect(JSON.parse(mixed.stdout).matches).toEqual(['mcp__gh__list-issues', 'a']);
      expect(mixed.stderr).toBe(
        `warning: ${FX}/dup-a.yaml: --prefix applies to MCP tools/list ` +
          `results only; this toolsearch catalog keeps its names\n`,
      );
      expect(mixed.code).toBe(0);
      expect([bad.code, bad.stdout, bad.stderr]).toEqual([
        2,
        '',
        'error: --prefix must be a server name without spaces or control characters, got "my server"\n',
      ]);
    },
  );

  it(
    '--prefix names MCP tools/list tools mcp__<server>__<tool>; hyphens stay (and --why says what that ' + 'costs)',
    async ({ expect }) => {
      const r = await run([
        'search',
        '-c',
        `${FX}/mcp-tools.json`,
        '--prefix',
        'github',
        'list',
        'issues',
        '--why',
        'mcp__github__list-issues',
      ]);
      expect(lines(r.stdout)).toEqual([
        'keyword search "list issues" · limit 5 · 1 of 2 tools match',
        '#  tool                      score  description',
        '1  mcp__github__list-issues     10  List issues in a repository.',
        '',
        'why mcp__github__list-issues: returned at rank 1 (score 10)',
        '  name parts: mcp, github, list-issues',
        '    list    part-substring  list-issues  +5',
        '    issues  part-substring  list-issues  +5',
        '  note: the reference does not split names on "-": "list-issues" is one name part, so "list" scores 5, not 10',
      ]);
    },
  );

  it('--catalog-format overrides detection', async ({ expect }) => {
    const ok = await run(['search', '-c', `${FX}/mcp-tools.json`, '--catalog-format', 'mcp', 'create', '--json']);
    expect(JSON.parse(ok.stdout).matches).toEqual(['create_issue']);
    const r = await run(['search', '-c', `${FX}/mcp-tools.json`, '--catalog-format', 'openai', 'x']);
    expect(lines(r.stderr)[0]).toMatch(
      new RegExp(`^error: ${FX}/mcp-tools.json:2:3: expected OpenAI .* tool, found MCP`),
    );
    expect(r.code).toBe(2);
  });

  it('searches the demo catalog', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      DEMO,
      'slack',
      'send',
      'message',
      '--expect-first',
      'mcp__slack__send_message',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toBe('keyword search "slack send message" · limit 5 · 15 of 125 tools match');
  });
});

describe.concurrent('search expectations', () => {
  it.for([
    [['--expect', 'linear__createIssue,github__create_issue']],
    [['--expect-exact', 'github__create_issue,linear__createIssue,github__list_issues']],
    [['--expect-first', 'github__create_issue']],
    [['--expect', 'github__list_issues', '--expect-first', 'github__create_issue']],
  ] as const)('pass: %j', async ([flags], { expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue', ...flags]);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual(CREATE_ISSUE_TABLE);
    expect(r.code).toBe(0);
  });

  it('pass: --expect-none', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'zzz', '--expect-none']);
    expect(r.code).toBe(0);
  });

  it('fail: --expect lists the missing tools and where they stand', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      'create',
      'issue',
      '-n',
      '2',
      '--expect',
      'github__create_issue,github__list_issues',
    ]);
    expect(r.stderr).toBe(
      [
        'fail: expectation not met: --expect github__create_issue,github__list_issues',
        '  missing 1 tool:',
        '    github__list_issues: rank 3 (score 5): beyond the limit of 2, max_results 3 would return it',
        '  #  got                   score',
        '  1  github__create_issue     20',
        '  2  linear__createIssue      20',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('fail: --expect-exact shows expected and got side by side', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      'create',
      'issue',
      '--expect-exact',
      'linear__createIssue,github__create_issue,HTMLParser',
    ]);
    expect(lines(r.stdout)).toEqual(CREATE_ISSUE_TABLE);
    expect(r.stderr).toBe(
      [
        'fail: expectation not met: --expect-exact linear__createIssue,github__create_issue,HTMLParser',
        '     #  expected              got                   score',
        '  ✗  1  linear__createIssue   github__create_issue     20',
        '  ✗  2  github__create_issue  linear__createIssue      20',
        '  ✗  3  HTMLParser            github__list_issues       5',
        '    HTMLParser: not returned: no keyword matches its name or description (score 0)',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('fail: --expect-exact with fewer results than expected', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      'create',
      'issue',
      '-n',
      '1',
      '--expect-exact',
      'github__create_issue,linear__createIssue',
    ]);
    expect(r.stderr).toBe(
      [
        'fail: expectation not met: --expect-exact github__create_issue,linear__createIssue',
        '     #  expected              got                   score',
        '     1  github__create_issue  github__create_issue     20',
        '  ✗  2  linear__createIssue',
        '    linear__createIssue: rank 2 (score 20): beyond the limit of 1, max_results 2 would return it',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('fail: --expect-first', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue', '--expect-first', 'github__list_issues']);
    expect(r.stderr).toBe(
      [
        'fail: expectation not met: --expect-first github__list_issues',
        '  expected first: github__list_issues',
        '  got first:      github__create_issue (score 20)',
        '    github__list_issues: returned at rank 3 (score 5)',
        '  #  got                   score',
        '  1  github__create_issue     20',
        '  2  linear__createIssue      20',
        '  3  github__list_issues       5',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('fail: --expect-none', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'parse', '--expect-none']);
    expect(r.stderr).toBe(
      [
        'fail: expectation not met: --expect-none',
        '  expected no matches, got 1',
        '  #  got         score',
        '  1  HTMLParser      5',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('fail: several expectations at once, with --json on stdout intact', async ({ expect }) => {
    const r = await run([
      'search',
      '-c',
      SMALL,
      'create',
      'issue',
      '--json',
      '--expect',
      'HTMLParser',
      '--expect-first',
      'linear__createIssue',
    ]);
    expect(JSON.parse(r.stdout).matches).toEqual([
      'github__create_issue',
      'linear__createIssue',
      'github__list_issues',
    ]);
    expect(lines(r.stderr)).toEqual([
      'fail: 2 expectations not met',
      '✗ --expect HTMLParser',
      '  missing 1 tool:',
      '    HTMLParser: not returned: no keyword matches its name or description (score 0)',
      '✗ --expect-first linear__createIssue',
      '  expected first: linear__createIssue',
      '  got first:      github__create_issue (score 20)',
      '    linear__createIssue: returned at rank 2 (score 20)',
      '  #  got                   score',
      '  1  github__create_issue     20',
      '  2  linear__createIssue      20',
      '  3  github__list_issues       5',
    ]);
    expect(r.code).toBe(1);
  });

  it('fail: expectations apply to select: queries too', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'select:HTMLParser', '--expect-exact', 'HTMLParser,fs__read_file']);
    expect(r.stderr).toBe(
      [
        'fail: expectation not met: --expect-exact HTMLParser,fs__read_file',
        '     #  expected       got',
        '     1  HTMLParser     HTMLParser',
        '  ✗  2  fs__read_file',
        '    fs__read_file: not requested by the select: query',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });
});

describe.concurrent('search --batch', () => {
  const EXPECTED = [
    '{"schema_version":1,"matches":["github__create_issue","linear__createIssue","github__list_issues"]}',
    '{"schema_version":1,"matches":["HTMLParser"]}',
    '{"schema_version":1,"error":"failed to unmarshal tool search arguments: unexpected end of JSON input"}',
    '{"schema_version":1,"error":"failed to unmarshal tool search arguments: json: cannot unmarshal number ' +
      'into Go struct field toolSearchArgs.query of type string"}',
    '{"schema_version":1,"error":"query is required"}',
    '{"schema_version":1,"matches":[]}',
    '{"schema_version":1,"matches":["HTMLParser"]}',
  ];

  it(
    'one JSON object per input line, in order, from a file (empty line → error object, no final newline ' + 'needed)',
    async ({ expect }) => {
      const r = await run(['search', '-c', SMALL, '--batch', `${FX}/queries.jsonl`]);
      expect(r.stderr).toBe('');
      expect(lines(r.stdout)).toEqual(EXPECTED);
      expect(r.code).toBe(0);
    },
  );

  it('from stdin with -', async ({ expect }) => {
    const { readFileSync } = await import('node:fs');
    const input = readFileSync(`${FX}/queries.jsonl`);
    const r = await run(['search', '-c', SMALL, '--batch', '-'], { input });
    expect(lines(r.stdout)).toEqual(EXPECTED);
    expect(r.code).toBe(0);
  });

  it('CRLF lines and invalid UTF-8 are decoded as Go does', async ({ expect }) => {
    const input = Buffer.concat([Buffer.from('{"query":"parse"}\r\n{"query":"x\xff"}\n', 'latin1')]);
    const r = await run(['search', '-c', SMALL, '--batch', '-'], { input });
    expect(lines(r.stdout)).toEqual([
      '{"schema_version":1,"matches":["HTMLParser"]}',
      '{"schema_version":1,"matches":[]}',
    ]);
  });

  it('5000 lines in one process (one index)', async ({ expect }) => {
    const input = '{"query":"read file"}\n{"query":"select:WebFetch"}\n'.repeat(2500);
    const r = await run(['search', '-c', DEMO, '--batch', '-'], { input });
    const out = lines(r.stdout);
    expect(out).toHaveLength(5000);
    expect(out[4999]).toBe('{"schema_version":1,"matches":["WebFetch"]}');
  });

  it('--all applies to the batch', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '--all', '--batch', '-'], { input: '{"query":"time"}\n' });
    expect(r.stdout).toBe('{"schema_version":1,"matches":["get_time"]}\n');
  });

  it('a missing batch file is bad input', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '--batch', `${FX}/nope.jsonl`]);
    expect(r.stderr).toBe(`error: ${FX}/nope.jsonl: no such file\n`);
    expect(r.code).toBe(2);
  });

  it('a directory as batch file is bad input', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, '--batch', FX]);
    expect(r.stderr).toBe(`error: ${FX}: is a directory, not a file\n`);
    expect(r.code).toBe(2);
  });
});
