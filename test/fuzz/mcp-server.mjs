#!/usr/bin/env node
/**
 * The only MCP server the fuzzer ever lets a client config start (see
 * `mcp-configs.mjs`): a stdio JSON-RPC server without dependencies that
 * reads nothing, writes nothing but its stdout and stderr, and ends when its
 * stdin closes. Its first argument picks what it answers:
 *
 *   ok        four tools over two pages, descriptions holding terminal escapes and HTML payloads
 *   hostile   tool names with controls, bidi overrides, markup and object keys; an empty description
 *   dup       a tool name listed twice
 *   deep      a tool whose inputSchema nests 1,100 levels (over the nesting bound)
 *   exit      writes a line with an escape sequence on stderr and exits 3 before answering
 *   garbage   answers initialize with a line that is not JSON-RPC
 *   cursor    a tools/list whose cursor never ends (the client's page bound stops it)
 *
 * Any other argument is `ok`. Arguments after the first are ignored.
 */
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'ok';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const schema = { type: 'object', properties: { text: { type: 'string', description: 'Some \u001b[31mtext' } } };

function deepSchema(levels) {
  let s = { type: 'string' };
  for (let i = 0; i < levels; i++) s = { type: 'object', properties: { x: s } };
  return s;
}

const TOOLS = {
  ok: [
    { name: 'create_issue', description: 'Create an issue \u001b]0;pwned\u0007 in a repository.', inputSchema: schema },
    { name: 'list-issues', description: 'List issues <script>window.pwned=1</script>', inputSchema: schema },
    { name: 'post_message', description: 'Post a message "><img src=x onerror=alert(1)>', inputSchema: schema },
    { name: 'read.file', description: 'Read a file \u202egnp.exe javascript:alert(1)', inputSchema: schema },
  ],
  hostile: [
    { name: 'evil\u001b[2Jname', description: 'clears the screen', inputSchema: schema },
    { name: '\u202eoverride', description: '</style><script>x()</script>', inputSchema: schema },
    { name: '__proto__', description: 'prototype', inputSchema: schema },
    { name: 'zero\u200dwidth', description: '', inputSchema: schema },
  ],
  dup: [
    { name: 'dup', description: 'first', inputSchema: schema },
    { name: 'dup', description: 'second', inputSchema: schema },
  ],
  deep: [{ name: 'deep', description: 'nested', inputSchema: deepSchema(1100) }],
};

if (mode === 'exit') {
  process.stderr.write('no token \u001b[31mred\u001b[0m\n');
  process.exit(3);
}

const tools = TOOLS[mode] ?? TOOLS.ok;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg === null || typeof msg !== 'object' || msg.id === undefined) return; // a notification
  if (msg.method === 'initialize') {
    if (mode === 'garbage') {
      process.stdout.write('hello \u001b[31mthere\n');
      return;
    }
    send({
      jsonrpc: '2.0',
      id: msg.id,
      result: {
        protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'fuzz \u001b[31mserver', version: '0.0.0' },
      },
    });
    return;
  }
  if (msg.method === 'tools/list') {
    if (mode === 'cursor') {
      send({ jsonrpc: '2.0', id: msg.id, result: { tools: [], nextCursor: `${Number(msg.params?.cursor ?? 0) + 1}` } });
      return;
    }
    const page = Number(msg.params?.cursor ?? 0);
    const next = page + 2 < tools.length ? { nextCursor: String(page + 2) } : {};
    send({ jsonrpc: '2.0', id: msg.id, result: { tools: tools.slice(page, page + 2), ...next } });
    return;
  }
  if (msg.method === 'ping') {
    send({ jsonrpc: '2.0', id: msg.id, result: {} });
    return;
  }
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
});
lines.on('close', () => process.exit(0));
