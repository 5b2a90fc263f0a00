#!/usr/bin/env node
'use strict';
// Thin shim: the CLI, bundled by `npm run build` (dist/bundle; heavy modules are chunks loaded on demand).
// CommonJS (bin/package.json) so that a bare --version is answered before Node's ES module loader even starts.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/bundle/main.js').then(({ main }) => main(argv)).then((code) => {
    process.exitCode = code;
  });
}
