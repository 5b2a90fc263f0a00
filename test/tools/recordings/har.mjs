#!/usr/bin/env node
/**
 * fixtures/recordings/har/: a HAR file written by Playwright's HAR recorder (playwright-core,
 * `browser.newContext({recordHar})`) around headless Chromium (Debian's /usr/bin/chromium, as the HTML
 * report tests use): a page served by the local provider (provider.mjs) whose `fetch` carries the
 * requests of the real `openai` client (the client's `fetch` option hands each request to the page),
 * as a browser app calling a model API is recorded in devtools.
 *
 *   npm run build && <node 22 or later> test/tools/recordings/har.mjs [out-dir]
 *
 * What changes between runs is pinned after the recording, and only that: the provider's port (4010),
 * times (`startedDateTime` one second apart in recorded order, `time`, `timings`, `_monotonicTime`,
 * page timings), Playwright's random page and frame ids, the browser's version and the request
 * headers that name the browser or the machine (User-Agent, sec-ch-ua*, x-stainless-os / arch /
 * runtime-version) with the request's `headersSize`, which counts them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { chromium } from 'playwright-core';
import { chatAgent, interleave } from './agent.mjs';
import { startProvider } from './provider.mjs';
import { loadScenario, ROOT } from './conversations.mjs';

const out = process.argv[2] ?? path.join(ROOT, 'fixtures/recordings/har');
const PORT = 4010;
const BASE = Date.parse('2026-01-01T09:00:00.000Z');
const PINNED = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 ' +
    'Safari/537.36',
  'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'x-stainless-os': 'Linux',
  'x-stainless-arch': 'x64',
  'x-stainless-runtime-version': 'v22.23.5',
};

/** The recorded HAR with what varies between runs pinned (see above). */
function pin(har, port) {
  const text = JSON.stringify(har).replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${PORT}`);
  const log = JSON.parse(text).log;
  log.browser = { ...log.browser, version: '156.0.8078.114' };
  const pages = new Map(log.pages.map((p, i) => [p.id, `page@${i + 1}`]));
  log.pages = log.pages.map((p, i) => ({
    ...p,
    startedDateTime: new Date(BASE).toISOString(),
    id: `page@${i + 1}`,
    pageTimings: { onContentLoad: 10, onLoad: 10 },
  }));
  const frames = new Map();
  log.entries = log.entries.map((e, i) => {
    if (e._frameref !== undefined && !frames.has(e._frameref)) frames.set(e._frameref, `frame@${frames.size + 1}`);
    const headers = e.request.headers.map((h) => {
      const v = PINNED[h.name.toLowerCase()];
      return v === undefined ? h : { ...h, value: v };
    });
    return {
      ...e,
      ...(e.pageref !== undefined ? { pageref: pages.get(e.pageref) } : {}),
      startedDateTime: new Date(BASE + 1000 * (i + 1)).toISOString(),
      time: 2,
      request: { ...e.request, headers, headersSize: -1 },
      timings: { dns: -1, connect: -1, ssl: -1, send: 0, wait: 1, receive: 1 },
      ...(e._frameref !== undefined ? { _frameref: frames.get(e._frameref) } : {}),
      ...(e._monotonicTime !== undefined ? { _monotonicTime: i + 1 } : {}),
      ...(e._serverPort !== undefined ? { _serverPort: PORT } : {}),
    };
  });
  return { log };
}

/** The client's requests made by the page: each one a `fetch` in Chromium, the answer handed back. */
function pageFetch(page) {
  return async (url, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const r = await page.evaluate(
      async ({ url, method, headers, body }) => {
        const res = await fetch(url, { method, headers, body });
        return { status: res.status, statusText: res.statusText, headers: [...res.headers], body: await res.text() };
      },
      { url: String(url), method: init.method ?? 'GET', headers, body: init.body ?? undefined },
    );
    // The browser has undone the content encoding.
    const h = r.headers.filter(([k]) => k !== 'content-encoding' && k !== 'content-length');
    return new Response(r.body, { status: r.status, statusText: r.statusText, headers: h });
  };
}

// A page, then two conversations of one browser app interleaved call by call, one of them streamed;
// gzip answers; one call rate-limited once (the client retries).
const scenarios = [
  loadScenario('deferred-tool-called-too-early', 'call_dt'),
  loadScenario('accumulate-two-searches', 'call_acc'),
];
const provider = await startProvider({ scenarios, gzip: true, failOnce: ['chat:accumulate-two-searches:3'] });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsearch-har-'));
const browser = await chromium.launch({
  executablePath: process.env.TOOLSEARCH_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
try {
  const file = path.join(tmp, 'browser.har');
  const context = await browser.newContext({ recordHar: { path: file, content: 'embed', mode: 'full' } });
  const page = await context.newPage();
  await page.goto(`${provider.url}/`);
  const client = new OpenAI({
    apiKey: 'sk-test',
    baseURL: `${provider.url}/v1`,
    fetch: pageFetch(page),
    maxRetries: 2,
    dangerouslyAllowBrowser: true,
  });
  await interleave([chatAgent(client, scenarios[0]), chatAgent(client, scenarios[1], { stream: true })]);
  await context.close();
  fs.mkdirSync(out, { recursive: true });
  const har = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(path.join(out, 'browser-chat.har'), `${JSON.stringify(pin(har, provider.port), null, 2)}\n`);
} finally {
  await browser.close();
  await provider.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
