#!/bin/sh
':' //; # Run as a program, this file is first a POSIX sh script (these ':' lines; Node reads each as a string and a comment).
':' //; # NODE_EXTRA_CA_CERTS makes Node load every root certificate before it runs a line of code (~40 ms a start);
':' //; # only TLS needs them. Unless an argument could lead to a network or a child process (mcp:, --mcp, ://, test, import),
':' //; # Node starts without the variable, and the JavaScript below puts it back in the environment at once.
':' //; # A bare --version (or -V) is answered from our package.json (through one symlink, as npm links bins) without Node.
':' //; if [ $# -eq 1 ] && { [ "$1" = --version ] || [ "$1" = -V ]; }; then v=; f=$0; if [ -L "$f" ] && l=$(readlink "$f"); then case $l in /*) f=$l;; *) f=${f%/*}/$l;; esac; fi; case $f in */*) d=${f%/*};; *) d=.;; esac; if [ -r "$d/../package.json" ]; then while IFS= read -r line; do case $line in *'"version": "'*) v=${line#*'"version": "'}; v=${v%%'"'*}; break;; esac; done < "$d/../package.json"; fi; case $v in [0-9]*.[0-9]*.[0-9]*) printf '%s\n' "$v" || exit 74; exit 0;; esac; fi
':' //; keep=; for a in "$@"; do case $a in *mcp:*|--mcp*|*://*) keep=1; break;; esac; done
':' //; for a in "$@"; do case $a in -*) ;; test|import) keep=1; break;; *) break;; esac; done
':' //; if [ -z "$keep" ] && [ -n "${NODE_EXTRA_CA_CERTS+set}" ]; then TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; fi
':' //; exec node "$0" "$@"
'use strict';
// Thin shim: the CLI is one CommonJS bundle built by `npm run build` (dist/bundle/main.cjs), loaded by
// dist/bundle/boot.cjs through V8's code cache (src/cli/boot.ts). CommonJS here too (bin/package.json),
// so that a bare --version is answered before anything else is loaded.
// `node bin/toolsearch.js …` skips the sh lines above and runs exactly as configured.
const deferred = process.env.TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS;
if (deferred !== undefined) {
  // Children and our own code see the environment as the user set it.
  process.env.NODE_EXTRA_CA_CERTS = deferred;
  delete process.env.TOOLSEARCH_DEFERRED_EXTRA_CA_CERTS;
  globalThis[Symbol.for('toolsearch.extraCaCertsDeferred')] = true;
}
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // Written to the descriptor: setting up process.stdout for a pipe would load Node's stream modules (~5 ms).
  const { writeSync } = require('node:fs');
  const bytes = Buffer.from(`${require('../package.json').version}\n`);
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(1, bytes, at);
    } catch (err) {
      if (err.code === 'EPIPE') break; // the reader has gone: nothing to say
      if (err.code !== 'EAGAIN') {
        // A full disk or /dev/full: one line, exit 74 (EX_IOERR), as the CLI does (src/cli/main.ts).
        try {
          writeSync(2, `error: cannot write to stdout: ${err.code === 'ENOSPC' ? 'no space left on the device (ENOSPC)' : err.code}\n`);
        } catch {}
        process.exit(74);
      }
    }
  }
} else {
  const { join } = require('node:path');
  require('../dist/bundle/boot.cjs').boot(join(__dirname, '..', 'dist', 'bundle', 'main.cjs'), argv);
}
