#!/usr/bin/env node
// Thin shim: the CLI, bundled by `npm run build` (dist/bundle; the heavy modules are separate chunks loaded on demand).
import { main } from '../dist/bundle/main.js';
main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
