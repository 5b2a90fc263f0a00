#!/usr/bin/env node
// Thin shim: the CLI, bundled by `npm run build` (dist/bundle; heavy modules are chunks loaded on demand).
// A bare --version is answered here, before any of it loads.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const { main } = await import('../dist/bundle/main.js');
  process.exitCode = await main(argv);
}
