import { describe, it } from 'vitest';
import { FX, DEMO, lines, run } from './helpers.js';

const SMALL = `${FX}/small.yaml`;

describe.concurrent('select', () => {
  it('selects by exact name, in the order given, duplicates kept (names also comma-separated)', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, 'HTMLParser', 'github__create_issue,HTMLParser']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      'direct selection "select:HTMLParser,github__create_issue,HTMLParser" · 3 of 3 names found',
      '#  tool                  description',
      '1  HTMLParser            Parse HTML documents into a tree.',
      '2  github__create_issue  Create a new issue in a GitHub repository.',
      '3  HTMLParser            Parse HTML documents into a tree.',
    ]);
    expect(r.code).toBe(0);
  });

  it('--json gives {matches, unknown}; unknown names warn on stderr', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, 'HTMLParser', 'nope', 'htmlparser', 'get_time', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: ['HTMLParser'],
      unknown: ['nope', 'htmlparser', 'get_time'],
    });
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['schema_version', 'engine', 'matches', 'unknown']);
    expect(lines(r.stderr)).toEqual([
      'warning: skipped nope: not a dynamic tool',
      'warning: skipped htmlparser: not a dynamic tool (did you mean HTMLParser? names are case-sensitive)',
      'warning: skipped get_time: a static tool, always visible and never selected',
    ]);
    expect(r.code).toBe(0);
  });

  it('--json: empty lists are []', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, 'nope', '--json']);
    expect(r.stdout).toBe(
      '{\n  "schema_version": 1,\n  "engine": "eino",\n  "matches": [],\n  "unknown": [\n    "nope"\n  ]\n}\n',
    );
    const ok = await run(['select', '-c', SMALL, 'HTMLParser', '--json']);
    expect(JSON.parse(ok.stdout).unknown).toEqual([]);
  });

  it('names are trimmed; empty pieces are skipped', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, ' HTMLParser ,,', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: ['HTMLParser'],
      unknown: [],
    });
  });

  it('--strict: unknown names exit 1', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, '--strict', 'HTMLParser', 'nope']);
    expect(lines(r.stdout)).toEqual([
      'direct selection "select:HTMLParser,nope" · 1 of 2 names found',
      '#  tool        description',
      '1  HTMLParser  Parse HTML documents into a tree.',
    ]);
    expect(r.stderr).toBe('warning: skipped nope: not a dynamic tool\nfail: 1 name is not a dynamic tool (--strict)\n');
    expect(r.code).toBe(1);
  });

  it('--strict passes when every name is a dynamic tool', async ({ expect }) => {
    const r = await run(['select', '-c', DEMO, '--strict', 'mcp__github__create_issue', 'mcp__slack__send_message']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toBe(
      'direct selection "select:mcp__github__create_issue,mcp__slack__send_message" · 2 of 2 names found',
    );
  });

  it('nothing selected', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, 'nope']);
    expect(lines(r.stdout)).toEqual(['direct selection "select:nope" · 0 of 1 name found', 'no tool selected']);
    expect(r.code).toBe(0);
  });

  it('a name is required', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL]);
    expect(r.stderr).toBe("error: missing required argument 'name'\n(add --help for usage)\n");
    expect(r.code).toBe(2);
  });
});
