/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Shared by the browser tests of the HTML reports: a browser per test file,
 * reports written by the BUILT CLI into a temporary directory, pages opened
 * from file:// that must request nothing and log no error, screenshots
 * saved outside the repository (the directory is printed at the end).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { run } from '../../cli/helpers.js';
import { artifactDir, openReport, startBrowser, type Opened, type Session } from './browser.js';

export interface Harness {
  readonly out: string;
  open(file: string, options?: Parameters<typeof openReport>[2]): Promise<Opened>;
  shot(o: Opened, name: string): Promise<void>;
  report(name: string, args: readonly string[], expectCode?: number): Promise<{ file: string; stdout: string }>;
}

/** Registers beforeAll/afterAll for a browser session and returns the helpers. */
export function harness(): Harness {
  const out = mkdtempSync(join(tmpdir(), 'toolsearch-html-'));
  const shots = mkdtempSync(join(artifactDir(), 'run-'));
  let session: Session | undefined;
  const opened: Opened[] = [];
  beforeAll(async () => {
    session = await startBrowser();
  }, 60_000);
  afterAll(async () => {
    for (const o of opened) await o.context.close().catch(() => {});
    await session?.close();
    process.stdout.write(`HTML report screenshots: ${shots}\n`);
  });
  return {
    out,
    async open(file, options = {}) {
      if (!session) throw new Error('the browser did not start (see the error of beforeAll)');
      const o = await openReport(session, file, options);
      opened.push(o);
      return o;
    },
    async shot(o, name) {
      await o.page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    },
    async report(name, args, expectCode = 0) {
      const file = join(out, `${name}.html`);
      const r = await run(args.map((a) => a.replace('{out}', file)));
      expect(r.stderr).not.toContain('    at ');
      expect(r.code).toBe(expectCode);
      return { file, stdout: r.stdout };
    },
  };
}

/** Every page must load nothing and log no error (a CSP violation is logged as one). */
export function expectQuiet(o: Opened): void {
  expect(o.requests).toEqual([]);
  expect(o.errors).toEqual([]);
}

export interface Cell {
  readonly state: string;
  readonly called: string | null;
}

export const S = (state: string, called: string | null = null): Cell => ({ state, called });

/** The timeline cells of every tool row, in call order. */
export async function allCells(o: Opened): Promise<Map<string, Cell[]>> {
  const rows = await o.page.$$eval('table.timeline tbody tr[data-tool]', (trs) =>
    trs.map(
      (tr) =>
        [
          tr.getAttribute('data-tool') ?? '',
          [...tr.querySelectorAll('td')].map((td) => ({
            state: td.getAttribute('data-state') ?? '',
            called: td.getAttribute('data-called'),
          })),
        ] as const,
    ),
  );
  return new Map(rows);
}

/** The timeline cells of one tool row, in call order. */
export async function cells(o: Opened, tool: string): Promise<Cell[]> {
  return (await allCells(o)).get(tool) ?? [];
}
