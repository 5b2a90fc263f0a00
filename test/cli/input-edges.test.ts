/**
 * Edge cases of the inputs: an empty catalog, a byte order mark at the start
 * of a --batch stream, TOOLSEARCH_MAX_ALIASES=0 (YAML aliases forbidden).
 * In-process (`main(argv, io)`), as the binary runs it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch } from '../../src/cli/batch.js';
import { limitsFromEnv } from '../../src/cli/limits.js';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { runIn } from '../jobs/suite/inproc.js';
import { DEMO, FX } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-input-edges-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function file(name: string, content: string | Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
}

const BOM = '\ufeff';
const READ_FILE =
  '{"schema_version":1,"matches":["mcp__filesystem__read_file","mcp__gdrive__gdrive_read_file",' +
  '"mcp__filesystem__read_multiple_files","mcp__filesystem__move_file","mcp__filesystem__edit_file"]}';
const CREATE_ISSUE =
  '{"schema_version":1,"matches":["mcp__atlassian__createJiraIssue","mcp__github__create_issue",' +
  '"mcp__linear__create_issue","mcp__linear__create_comment","mcp__atlassian__addCommentToJiraIssue"]}';
/**
 * What the reference answers for arguments that start with a BOM's bytes (Go's json.Unmarshal reads byte 0xEF as 'ï').
 */
const BOM_ERROR =
  '{"schema_version":1,"error":"failed to unmarshal tool search arguments: ' +
  `invalid character 'ï' looking for beginning of value"}`;

describe('an empty catalog', () => {
  const NOTE =
    'error: tools is required (the catalog has no dynamic tools: it is empty, or all of its tools are static)\n';

  it('says "tools is required" first, then a note true of an empty catalog', async () => {
    const empty = file('empty.yaml', 'tools: []\n');
    for (const argv of [
      ['search', '-c', empty, 'x'],
      ['select', '-c', empty, 'x'],
      ['simulate', 'fixtures/transcripts/keyword-search-then-call.json', '-c', empty],
    ]) {
      const r = await runIn(argv);
      expect(r.stderr, argv.join(' ')).toBe(NOTE);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
    }
  });

  it('the same note for a catalog of static tools only', async () => {
    const r = await runIn(['search', '-c', `${FX}/only-static.yaml`, 'x']);
    expect(r.stderr).toBe(NOTE);
    expect(r.code).toBe(2);
  });
});

describe('--batch: a UTF-8 byte order mark at the start of the stream is dropped', () => {
  it('from a file: line 1 is answered like the others', async () => {
    const queries = file('bom.jsonl', `${BOM}{"query":"read file"}\n{"query":"create issue"}\n`);
    const r = await runIn(['search', '-c', DEMO, '--batch', queries]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${READ_FILE}\n${CREATE_ISSUE}\n`);
    expect(r.code).toBe(0);
  });

  it(
    'from stdin; only one BOM, only at the start (a BOM on a later line is line content, as in the ' + 'reference)',
    async () => {
      const { Readable } = await import('node:stream');
      const { main } = await import('../../src/cli/main.js');
      let stdout = '';
      const code = await main(['search', '-c', DEMO, '--batch', '-'], {
        stdout: { write: (s: string) => ((stdout += s), true), isTTY: false },
        stderr: { write: () => true, isTTY: false },
        stdin: Readable.from([Buffer.from(`${BOM}{"query":"read file"}\n${BOM}{"query":"read file"}\n`)]),
        env: { NO_COLOR: '1' },
      });
      expect(code).toBe(0);
      expect(stdout).toBe(`${READ_FILE}\n${BOM_ERROR}\n`);
    },
  );

  it('a BOM split over chunks, a stream that is only a BOM, and bytes that merely start like one', async () => {
    const index = new ToolIndex([{ name: 'create_issue', description: 'Create an issue' }]);
    const batch = async (chunks: Buffer[]): Promise<string> => {
      let out = '';
      await runBatch(
        index,
        (async function* () {
          yield* chunks;
        })(),
        (s) => (out += s),
      );
      return out;
    };
    const line = Buffer.from('{"query":"create issue"}\n');
    const ok = '{"schema_version":1,"matches":["create_issue"]}\n';
    expect(await batch([Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.concat([Buffer.from([0xbf]), line])])).toBe(
      ok,
    );
    expect(await batch([Buffer.from([0xef, 0xbb, 0xbf])])).toBe('');
    expect(await batch([Buffer.from([0xef, 0xbb, 0xbf]), line, line])).toBe(ok + ok);
    // Not a BOM: the bytes stay (invalid JSON, as before).
    expect(await batch([Buffer.from([0xef, 0xbb]), Buffer.from('\n')])).toBe(`${BOM_ERROR}\n`);
  });
});

describe('TOOLSEARCH_MAX_ALIASES=0 forbids YAML aliases', () => {
  it('is accepted (other bounds still need a positive integer)', () => {
    expect(limitsFromEnv({ TOOLSEARCH_MAX_ALIASES: '0' })).toEqual({ maxAliases: 0 });
    expect(() => limitsFromEnv({ TOOLSEARCH_MAX_ALIASES: '-1' })).toThrow(
      'TOOLSEARCH_MAX_ALIASES must be a non-negative integer, got "-1"',
    );
    expect(() => limitsFromEnv({ TOOLSEARCH_MAX_DEPTH: '0' })).toThrow(
      'TOOLSEARCH_MAX_DEPTH must be a positive integer, got "0"',
    );
  });

  it('a catalog with one alias is refused; one without is read', async () => {
    const r = await runIn(['search', '-c', 'fixtures/formats/catalogs/aliases-ok.yaml', 'read', 'file'], {
      TOOLSEARCH_MAX_ALIASES: '0',
    });
    expect(r.stderr.split('\n')[0]).toBe(
      'error: fixtures/formats/catalogs/aliases-ok.yaml:6:17: too many YAML aliases ' +
        '(more than 0; set TOOLSEARCH_MAX_ALIASES to raise the limit)',
    );
    expect(r.code).toBe(2);
    const plain = await runIn(['search', '-c', DEMO, 'read', 'file'], { TOOLSEARCH_MAX_ALIASES: '0' });
    expect(plain.stderr).toBe('');
    expect(plain.code).toBe(0);
    const bad = await runIn(['search', '-c', DEMO, 'x'], { TOOLSEARCH_MAX_ALIASES: 'none' });
    expect(bad.stderr).toBe('error: TOOLSEARCH_MAX_ALIASES must be a non-negative integer, got "none"\n');
    expect(bad.code).toBe(2);
  });
});
