// Preload for the benchmark's module check: `node --import ./test/bench/trace-modules.mjs ...`
// appends every module URL the process resolves to the file named by
// TOOLSEARCH_TRACE_MODULES (one per line).
import { register } from 'node:module';

if (process.env.TOOLSEARCH_TRACE_MODULES) {
  register('./trace-modules-hooks.mjs', import.meta.url, { data: { file: process.env.TOOLSEARCH_TRACE_MODULES } });
}
