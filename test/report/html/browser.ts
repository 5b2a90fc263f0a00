/**
 * Headless Chromium for the HTML report tests: Debian's `chromium` package
 * (/usr/bin/chromium, installed by .ci/run), driven by playwright-core,
 * which downloads no browser. No browser found is a failure with a clear
 * message, never a silent skip.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Where the browser is looked for: TOOLSEARCH_CHROMIUM, then the Debian paths. */
export function chromiumPath(
  candidates: readonly string[] = [
    process.env.TOOLSEARCH_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].filter((p): p is string => p !== undefined && p !== ''),
): string {
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) {
    throw new Error(
      `no Chromium for the HTML report tests: looked for ${candidates.join(', ')}. ` +
        'Install it (Debian: apt-get install -y chromium; .ci/run does) ' +
        'or point TOOLSEARCH_CHROMIUM at a Chromium binary.',
    );
  }
  return found;
}

export interface Session {
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * Starts the browser: no network features, no sandbox (containers), no GPU.
 * The profile is fresh: playwright-core's launch() passes Chromium a new
 * temporary --user-data-dir of its own every time (and refuses one in
 * `args`), removed when the browser closes.
 */
export async function startBrowser(): Promise<Session> {
  const executablePath = chromiumPath();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** Screenshots of the tests go here (outside the repository), one directory per run; printed by the tests. */
export function artifactDir(): string {
  const dir = process.env.TOOLSEARCH_ARTIFACTS ?? join(tmpdir(), 'toolsearch-html-artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every request the page made other than the report file itself (must stay empty). */
  readonly requests: string[];
  /** Console errors and page errors (a CSP violation shows here). */
  readonly errors: string[];
}

/** Opens a report file from file:// in a fresh context. */
export async function openReport(
  session: Session,
  file: string,
  options: { javaScript?: boolean; width?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<Opened> {
  const context = await session.browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const url = `file://${file}`;
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, requests, errors };
}
