/**
 * The files a catalog spec makes a run read, for the "an output never
 * overwrites an input" rule (src/io/output.ts): a catalog file itself;
 * for `mcp:<command line>`, the files its words name (the server's program
 * given as a path, its script, its data); for an MCP client config, the
 * config and the files named by the command line of each stdio server it
 * would start (`command` and `args`, relative ones against the entry's
 * `cwd`). A config that does not read is only its own file here: its error
 * comes when it is loaded.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { quote } from '../../io/errors.js';
import type { Limits } from '../../io/read.js';
import { parseFile } from '../../io/parse.js';
import type { RunInput } from '../../io/output.js';
import { isMcpSpec, mcpTargetOf } from './catalog-spec.js';
import { mightBeClientConfig, readClientConfig } from './client-config.js';
import { commandLineFiles } from './command-line.js';

/** The words of an argument vector that name existing regular files (`--opt=value` too), against `cwd`. */
function argvFiles(argv: readonly string[], cwd: string | undefined): string[] {
  return argv
    .flatMap((w) => [w, ...(w.startsWith('-') && w.includes('=') ? [w.slice(w.indexOf('=') + 1)] : [])])
    .filter((w) => {
      if (w === '') return false;
      try {
        return statSync(cwd !== undefined ? resolve(cwd, w) : w).isFile();
      } catch {
        return false;
      }
    })
    .map((w) => (cwd !== undefined ? resolve(cwd, w) : w));
}

/**
 * The inputs `specs` (as `-c` takes them, or a suite's `catalog:`) add to a
 * run: each file as `kind` (default `catalog`), and what `mcp:` command lines
 * and client configs name (see the module comment). `-` (stdin) is none.
 */
export function catalogInputs(
  specs: readonly string[],
  options: { readonly kind?: string; readonly limits?: Partial<Limits>; readonly env?: NodeJS.ProcessEnv } = {},
): RunInput[] {
  const out: RunInput[] = [];
  for (const spec of specs) {
    if (spec === '-') continue;
    if (isMcpSpec(spec)) {
      const target = mcpTargetOf(spec);
      if (target.command !== undefined)
        for (const path of commandLineFiles(target.command)) out.push({ kind: 'file named by an mcp: catalog', path });
      continue;
    }
    out.push({ kind: options.kind ?? 'catalog', path: spec });
    if (!mightBeClientConfig(spec)) continue;
    try {
      const config = readClientConfig(
        parseFile(spec, options.limits ? { limits: options.limits } : {}),
        options.env ?? process.env,
      );
      for (const server of config?.servers ?? []) {
        const t = server.target;
        if (t.kind !== 'stdio') continue;
        for (const path of argvFiles([t.program, ...t.args], t.cwd))
          out.push({ kind: `file named by server ${quote(server.key)} of ${quote(spec)}`, path });
      }
    } catch {
      // reported when the config is loaded
    }
  }
  return out;
}
