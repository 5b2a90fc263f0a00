#!/usr/bin/env node
'use strict';
// The CLI, built by `npm run build` (src/build/bundle.mjs): start.cjs is src/cli/start.ts, which runs cli.cjs.
require('../dist/bundle/start.cjs').start(process.argv.slice(2));
