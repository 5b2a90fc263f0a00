// Preload that records which modules a process loads, for the benchmark's module check and
// the lazy-loading tests: `node --import ./test/bench/trace-modules.mjs …` appends to the file
// named by TOOLSEARCH_TRACE_MODULES, one per line, the URL of every ES module the process
// resolves (module hooks, off the main thread) and of every CommonJS module or built-in it
// requires (`file:///…/x.cjs`, `node:fs`): the CLI is a CommonJS bundle (dist/bundle/cli.cjs)
// that requires packages such as yaml and React, and imports ES-only packages (Ink).
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.TOOLSEARCH_TRACE_MODULES;
if (file) {
  register('./trace-modules-hooks.mjs', import.meta.url, { data: { file } });
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const exports = load.apply(this, arguments);
    let url;
    try {
      const resolved = Module._resolveFilename(request, parent, isMain);
      url = resolved.startsWith('/')
        ? pathToFileURL(resolved).href
        : resolved.startsWith('node:')
          ? resolved
          : `node:${resolved}`;
    } catch {
      url = request;
    }
    appendFileSync(file, `${url}\n`);
    return exports;
  };
}
