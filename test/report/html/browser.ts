/**
 * Headless Chromium for the HTML report tests, driven by playwright-core (which downloads no browser):
 * TOOLSEARCH_CHROMIUM when set, else the system's `chromium` on PATH, else the Chromium that ships
 * inside the @sparticuz/chromium devDependency (its tarball carries the binary, brotli-compressed:
 * unpacked once into node_modules/.cache, a directory of this checkout, not a shared /tmp). So `npm
 * install && npm test` needs no system package; a TOOLSEARCH_CHROMIUM that does not exist is a failure
 * with a clear message, never a silent skip.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** An executable `name` in a directory of `path` (PATH), or null. */
function onPath(names: readonly string[], path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter).filter((d) => d !== '')) {
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** The browser to drive, and the environment it needs (fonts for the bundled one). */
export interface ChromiumFound {
  readonly path: string;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Which Chromium the tests drive (see above). `env`: TOOLSEARCH_CHROMIUM and PATH, as the tests' own
 * environment has them.
 */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumFound> {
  const given = env.TOOLSEARCH_CHROMIUM;
  if (given !== undefined && given !== '') {
    if (!existsSync(given))
      throw new Error(`TOOLSEARCH_CHROMIUM is ${given}, which does not exist: point it at a Chromium binary`);
    return { path: given };
  }
  const system = onPath(['chromium', 'chromium-browser'], env.PATH);
  return system !== null ? { path: system } : bundledChromium();
}

/**
 * The Chromium of @sparticuz/chromium, unpacked into node_modules/.cache/toolsearch-chromium-<version>
 * (the package unpacks into `os.tmpdir()`, which TMPDIR names while it does), with a fontconfig file for
 * the fonts it carries. Unpacked into a directory of this process first, then renamed into place: test
 * files running at once never see a half-written browser.
 */
async function bundledChromium(): Promise<ChromiumFound> {
  // The package's exports leave out package.json: read from node_modules.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as {
    version: string;
  };
  const dir = join(ROOT, 'node_modules', '.cache', `toolsearch-chromium-${pkg.version}`);
  const found = { path: join(dir, 'chromium'), env: { FONTCONFIG_FILE: join(dir, 'fonts.conf') } };
  if (existsSync(found.env.FONTCONFIG_FILE)) return found;
  const mine = `${dir}.${process.pid}`;
  rmSync(mine, { recursive: true, force: true });
  mkdirSync(mine, { recursive: true, mode: 0o700 });
  const before = process.env.TMPDIR;
  process.env.TMPDIR = mine;
  try {
    if (tmpdir() !== mine) throw new Error(`os.tmpdir() is not ${mine}: cannot unpack @sparticuz/chromium there`);
    const { default: bundled } = (await import('@sparticuz/chromium')) as {
      default: { executablePath(): Promise<string> };
    };
    const path = await bundled.executablePath();
    if (path !== join(mine, 'chromium')) throw new Error(`@sparticuz/chromium unpacked its browser as ${path}`);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  writeFileSync(
    join(mine, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts')}</dir>\n` +
      `  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    renameSync(mine, dir);
  } catch (err) {
    // Another test file's process got there first: its browser is the same.
    if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    rmSync(mine, { recursive: true, force: true });
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
  const found = await findChromium();
  const browser = await chromium.launch({
    executablePath: found.path,
    ...(found.env === undefined ? {} : { env: { ...process.env, ...found.env } }),
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
