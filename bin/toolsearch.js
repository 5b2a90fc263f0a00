#!/usr/bin/env node
'use strict';
// The CLI, built by `npm run build` (src/build/bundle.mjs): start.cjs is src/cli/start.ts; it picks the bundle.
require('../dist/bundle/start.cjs').start((name) => require(`../dist/bundle/${name}.cjs`), process.argv.slice(2));
