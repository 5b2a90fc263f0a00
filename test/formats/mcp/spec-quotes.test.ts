/**
 * `-c 'mcp:"node server.js stdio"'`: the quotes the help shows around the
 * command line reach us when the shell's single quotes keep them; one pair
 * around everything after `mcp:` is dropped, as a shell would drop it.
 */
import { describe, expect, it } from 'vitest';
import { mcpTargetOf } from '../../../src/formats/mcp/catalog-spec.js';
import { runIn } from '../../jobs/suite/inproc.js';
import { TEST_SERVER } from './helpers.js';

describe('mcpTargetOf: one pair of quotes around the whole spec', () => {
  it.each([
    ['mcp:"node server.js stdio"', { command: 'node server.js stdio' }],
    ["mcp:'node server.js stdio'", { command: 'node server.js stdio' }],
    ['mcp: "node server.js stdio" ', { command: 'node server.js stdio' }],
    ['mcp:"http://127.0.0.1:3000/mcp"', { url: 'http://127.0.0.1:3000/mcp' }],
    ["mcp:'https://example.test/mcp'", { url: 'https://example.test/mcp' }],
    // Inside "…", \" \\ \$ \` are unescaped as a shell does: the command line keeps its own quotes.
    ['mcp:"sh -c \\"echo hi\\""', { command: 'sh -c "echo hi"' }],
    ['mcp:"C:\\tools\\server"', { command: 'C:\\tools\\server' }],
  ])('%s', (spec, target) => {
    expect(mcpTargetOf(spec)).toEqual(target);
  });

  it.each([
    // Quoted words, not one quoted whole: the command line as given.
    ["mcp:'node' 'server.js'", { command: "'node' 'server.js'" }],
    ['mcp:"a" "b"', { command: '"a" "b"' }],
    ['mcp:"node server.js\'', { command: '"node server.js\'' }],
    ['mcp:"node', { command: '"node' }],
    ['mcp:"a\\"', { command: '"a\\"' }],
    ['mcp:npx -y server', { command: 'npx -y server' }],
  ])('unchanged: %s', (spec, target) => {
    expect(mcpTargetOf(spec)).toEqual(target);
  });
});

describe('the CLI reads a quoted mcp: spec', () => {
  it.each(['"', "'"])('quoted with %s', async (quote) => {
    const spec = `mcp:${quote}${process.execPath} ${TEST_SERVER} --name demo --tools 2${quote}`;
    const r = await runIn(['select', '-c', spec, 'mcp__demo__create_issue', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: ['mcp__demo__create_issue'],
      unknown: [],
    });
    expect(r.code).toBe(0);
  });
});
