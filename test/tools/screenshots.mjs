// Regenerates the README screenshots of the HTML reports (fixtures/screenshots/*.png)
// with the built CLI and Debian's Chromium (playwright-core). Run from the repository root:
//   npm run build && node test/tools/screenshots.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-shots-'));
const cli = (args) => {
  try {
    execFileSync(process.execPath, ['bin/toolsearch.js', ...args], { stdio: 'ignore' });
  } catch (err) {
    if (err.status !== 1) throw err; // a failing suite is what the test report shows
  }
};
const reports = [
  [
    'simulate',
    [
      'simulate',
      'fixtures/transcripts/deferred-tool-called-too-early.json',
      '-c',
      'fixtures/catalogs/demo.yaml',
      '--replay',
      '--html',
    ],
  ],
  ['eval', ['eval', 'fixtures/eval/demo-queries.jsonl', '-c', 'fixtures/catalogs/demo.yaml', '--html']],
  ['test', ['test', 'fixtures/suites/demo.yaml', 'fixtures/suites/failing', '--reporter', 'html', '--output']],
  ['aggregate', ['simulate', 'fixtures/transcripts/*.json', '-c', 'fixtures/catalogs/demo.yaml', '--html']],
];
const browser = await chromium.launch({
  executablePath: process.env.TOOLSEARCH_CHROMIUM || '/usr/bin/chromium',
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
for (const [name, args] of reports) {
  const file = join(dir, `${name}.html`);
  cli([...args, file]);
  const page = await browser.newPage({ viewport: { width: 1100, height: 820 }, colorScheme: 'light' });
  await page.goto(`file://${file}`);
  await page.screenshot({ path: `fixtures/screenshots/${name}-report.png` });
  await page.close();
}
await browser.close();
