#!/usr/bin/env node
'use strict';
// The CLI, built by `npm run build` (src/build/bundle.mjs): start.cjs is src/cli/start.ts, main.cjs the CLI.
require('../dist/bundle/start.cjs').start(() => require('../dist/bundle/main.cjs'), process.argv.slice(2));
