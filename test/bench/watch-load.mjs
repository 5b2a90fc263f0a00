#!/usr/bin/env node
// Load test of `toolsearch watch --proxy` on 127.0.0.1 (issue 31): N model calls from C concurrent
// clients, each client one conversation (a session) of N/C calls that extend each other, half of
// them streamed. Each call is made side by side straight to the upstream and through the proxy
// (alternating which goes first), so both run under the same load; the figures are the per-call
// latency of both and what the proxy adds (each call minus its direct twin: median, p99), and the
// time to the first streamed byte. The upstream runs in a process of its own (this script with
// --serve). Then every call must be in watch's JSON lines and in its -o recording: C sessions,
// each with its calls in order (none lost, none reordered). Uses the built CLI (dist/).
//
//   node test/bench/watch-load.mjs [--calls 1000] [--clients 20] [--json out.json]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : process.argv[i + 1];
};
const CALLS = Number(arg('--calls', '1000'));
const CLIENTS = Number(arg('--clients', '20'));
const JSON_OUT = arg('--json', null);
if (!(CALLS > 0 && CLIENTS > 0 && CALLS % CLIENTS === 0 && CALLS <= 100_000 && CLIENTS <= 200)) {
  console.error('--calls must be a multiple of --clients (at most 100,000 calls, 200 clients)');
  process.exit(2);
}
const PER = CALLS / CLIENTS;
const TOOLS = ['tool_search', 'get_weather', 'send_email'].map((name) => ({
  type: 'function',
  function: { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } },
}));

// The upstream: OpenAI Chat Completions, plain or streamed; call k of client c calls a tool with id c<c>_<k>.
function answer(body) {
  const user = body.messages[0].content;
  const k = body.messages.filter((m) => m.role === 'assistant').length + 1;
  const c = /client (\d+)/.exec(user)[1];
  const name = k % 2 === 1 ? 'tool_search' : 'get_weather';
  const args = k % 2 === 1 ? '{"query":"weather"}' : '{"city":"Paris"}';
  return {
    id: `chatcmpl-${c}-${k}`,
    call: { id: `c${c}_${k}`, type: 'function', function: { name, arguments: args } },
  };
}
const upstream = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const a = answer(body);
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({
          id: a.id,
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      res.write(
        chunk(
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, ...a.call, function: { name: a.call.function.name, arguments: '' } }],
          },
          null,
        ),
      );
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: a.call.function.arguments } }] }, null));
      res.end(`${chunk({}, 'tool_calls')}data: [DONE]\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: a.id,
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: null, tool_calls: [a.call] },
              finish_reason: 'tool_calls',
            },
          ],
        }),
      );
    }
  });
});
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
// The upstream serves from a process of its own (this script with --serve), so that direct and proxied
// calls meet the same upstream and neither leg shares the clients' event loop.
if (process.argv.includes('--serve')) {
  process.stdout.write(`${upstream.address().port}\n`);
  process.on('SIGTERM', () => process.exit(0));
  await new Promise(() => {});
}
upstream.close();
const server = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const upstreamUrl = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (b) => {
    text += b;
    if (text.includes('\n')) resolve(`http://127.0.0.1:${text.trim()}`);
  });
  server.on('error', reject);
});

/** One call: total time and time to the first byte of the answer, in ms, and the answer. */
function call(base, body) {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const t0 = performance.now();
    let first = null;
    const u = new URL(`${base}/v1/chat/completions`);
    const req = request(
      {
        hostname: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': data.length,
          authorization: 'Bearer sk-bench',
        },
      },
      (res) => {
        const parts = [];
        res.on('data', (c) => {
          first ??= performance.now() - t0;
          parts.push(c);
        });
        res.on('end', () =>
          resolve({
            ms: performance.now() - t0,
            ttfb: first,
            status: res.statusCode,
            text: Buffer.concat(parts).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * One client's conversation: PER calls, each extending the last; even calls streamed. Each call is made
 * twice side by side, straight to the upstream and through the proxy (which goes first alternates), so
 * both see the same load; the conversation goes on from the proxied answer.
 */
async function client(c, out) {
  const messages = [{ role: 'user', content: `client ${c}: what is the weather?` }];
  for (let k = 1; k <= PER; k++) {
    const stream = k % 2 === 0;
    const body = { model: 'm', stream, messages, tools: TOOLS };
    const order = (c + k) % 2 === 0 ? ['direct', 'proxied'] : ['proxied', 'direct'];
    for (const way of order) {
      const r = await call(way === 'direct' ? upstreamUrl : proxyUrl, body);
      if (r.status !== 200) throw new Error(`client ${c} call ${k} (${way}): status ${r.status}`);
      out[way].push({ client: c, k, stream, ms: r.ms, ttfb: r.ttfb });
    }
    const id = `c${c}_${k}`;
    const a = answer({ messages });
    if (a.call.id !== id) throw new Error('unexpected script');
    messages.push({ role: 'assistant', content: null, tool_calls: [a.call] });
    messages.push({ role: 'tool', tool_call_id: id, content: k % 2 === 1 ? '{"matches":["get_weather"]}' : 'sunny' });
  }
}

async function workload() {
  const out = { direct: [], proxied: [] };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c, out)));
  const wall = performance.now() - t0;
  return { direct: { calls: out.direct, wall }, proxied: { calls: out.proxied, wall } };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const fmt = (ms) => `${ms.toFixed(2)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'watch-load-'));
const recording = join(dir, 'calls.jsonl');
const watch = spawn(
  process.execPath,
  [join(root, 'bin/toolsearch.js'), 'watch', '--proxy', upstreamUrl, '--port', '0', '--jsonl', '-o', recording],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  },
);
let stdout = '';
let stderr = '';
watch.stdout.on('data', (b) => {
  stdout += b;
});
const proxyUrl = await new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error(`watch did not start: ${stderr}`)), 20_000);
  watch.stderr.on('data', (b) => {
    stderr += b;
    const m = /listening on (http:\/\/\S+)/.exec(stderr);
    if (m) {
      clearTimeout(t);
      resolve(m[1]);
    }
  });
});

// Warm-up (not measured): one short conversation each way.
await call(upstreamUrl, { model: 'm', messages: [{ role: 'user', content: 'client 999: warm' }], tools: TOOLS });
await call(proxyUrl, { model: 'm', messages: [{ role: 'user', content: 'client 999: warm' }], tools: TOOLS });

const { direct, proxied } = await workload();

// Every call in the JSON lines and the recording, in order, per session.
const deadline = Date.now() + 120_000;
while (stdout.split('\n').filter(Boolean).length < CALLS + 1 && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 50));
watch.kill('SIGINT');
const code = await new Promise((r) => watch.on('close', r));
const lines = stdout
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const problems = [];
if (code !== 0) problems.push(`watch exited ${code}: ${stderr}`);
const bySession = new Map();
for (const l of lines) {
  if (l.error) problems.push(`a call with an error: ${l.error}`);
  if (!bySession.has(l.session)) bySession.set(l.session, []);
  bySession.get(l.session).push(l);
}
let checked = 0;
for (const [s, ls] of bySession) {
  const ids = ls.map((l) => l.turn?.tool_calls[0]?.id ?? '');
  // The warm-up call is a session of its own.
  if (ls.length === 1 && ids[0] === 'c999_1') continue;
  const client = /^c(\d+)_1$/.exec(ids[0] ?? '')?.[1];
  if (client === undefined) {
    problems.push(`session ${s}: no first call`);
    continue;
  }
  const want = Array.from({ length: PER }, (_, k) => `c${client}_${k + 1}`);
  if (JSON.stringify(ids) !== JSON.stringify(want))
    problems.push(`session ${s}: calls ${ids.join(',')} (want 1..${PER} of client ${client})`);
  if (JSON.stringify(ls.map((l) => l.call)) !== JSON.stringify(want.map((_, i) => i + 1)))
    problems.push(`session ${s}: call numbers out of order`);
  checked += ls.length;
}
if (checked !== CALLS) problems.push(`${checked} of ${CALLS} calls found in ${bySession.size - 1} sessions`);
const recorded = readFileSync(recording, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const recordedCalls = recorded.reduce((n, s) => n + s.length, 0);
if (recordedCalls !== CALLS + 1) problems.push(`-o holds ${recordedCalls} calls, not ${CALLS + 1}`);
for (const s of recorded) {
  const ids = s.map((c) => c.response.choices[0].message.tool_calls[0].id);
  if (ids.length === 1 && ids[0] === 'c999_1') continue;
  const client = /^c(\d+)_1$/.exec(ids[0])[1];
  if (ids.some((id, i) => id !== `c${client}_${i + 1}`)) problems.push(`-o session of client ${client} out of order`);
}
if (readFileSync(recording, 'utf8').includes('sk-bench')) problems.push('a credential reached -o');
rmSync(dir, { recursive: true, force: true });
server.kill('SIGTERM');

const ms = (r) => r.calls.map((c) => c.ms);
const ttfb = (r) => r.calls.filter((c) => c.stream).map((c) => c.ttfb);
const rows = {
  calls: CALLS,
  clients: CLIENTS,
  direct: {
    median: pct(ms(direct), 50),
    p99: pct(ms(direct), 99),
    ttfb_median: pct(ttfb(direct), 50),
    wall_ms: direct.wall,
  },
  proxied: {
    median: pct(ms(proxied), 50),
    p99: pct(ms(proxied), 99),
    ttfb_median: pct(ttfb(proxied), 50),
    wall_ms: proxied.wall,
  },
};
// What the proxy adds to a call: the proxied call minus its direct twin made beside it (paired), then
// the median and p99 of those differences.
const twin = new Map(direct.calls.map((c) => [`${c.client}/${c.k}`, c]));
const pairs = proxied.calls.map((c) => ({ c, d: twin.get(`${c.client}/${c.k}`) }));
rows.added = {
  median: pct(
    pairs.map(({ c, d }) => c.ms - d.ms),
    50,
  ),
  p99: pct(
    pairs.map(({ c, d }) => c.ms - d.ms),
    99,
  ),
  ttfb_median: pct(
    pairs.filter(({ c }) => c.stream).map(({ c, d }) => c.ttfb - d.ttfb),
    50,
  ),
};
console.log(
  `watch --proxy load: ${CALLS} model calls from ${CLIENTS} concurrent clients on 127.0.0.1 ` +
    `(${PER} per session, half streamed), Node ${process.versions.node}`,
);
console.log(
  `  direct   median ${fmt(rows.direct.median)}  p99 ${fmt(rows.direct.p99)}  ` +
    `first byte (streamed) ${fmt(rows.direct.ttfb_median)}`,
);
console.log(
  `  proxied  median ${fmt(rows.proxied.median)}  p99 ${fmt(rows.proxied.p99)}  ` +
    `first byte (streamed) ${fmt(rows.proxied.ttfb_median)}  (both side by side: ${fmt(direct.wall)} in all)`,
);
console.log(
  `  added (each call minus its direct twin)  median ${fmt(rows.added.median)}  p99 ${fmt(rows.added.p99)}  ` +
    `first byte ${fmt(rows.added.ttfb_median)}`,
);
console.log(
  `  lost or reordered: ${problems.length === 0 ? 'none' : problems.length} ` +
    `(${lines.length - 1} JSON lines, ${bySession.size - 1} sessions, -o ${recordedCalls - 1} calls)`,
);
for (const p of problems.slice(0, 10)) console.log(`  PROBLEM ${p}`);
rows.lost_or_reordered = problems.length;
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ ...rows, problems }, null, 2)}\n`);
process.exitCode = problems.length === 0 ? 0 : 1;
