#!/usr/bin/env node
// Thin shim: the compiled CLI does all the work (run `npm run build` first when working from a checkout).
import { main } from '../dist/cli/main.js';
main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
