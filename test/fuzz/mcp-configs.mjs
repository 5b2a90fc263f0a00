/**
 * MCP client configs for the fuzzer (`.mcp.json`'s `mcpServers` form and VS
 * Code's `servers` form, read as catalogs with `-c` and by `import
 * --config`), and the rule that keeps a mutated config from ever starting a
 * real command.
 *
 * The seeds name only `${FUZZ_NODE}` (this Node) running `${FUZZ_MCP_SERVER}`
 * (mcp-server.mjs, which reads and writes nothing) and remote servers at
 * http://127.0.0.1:1/mcp (nothing listens on port 1: the connection is
 * refused at once). The variables are set in the fuzzer's environment, so
 * the seeds' bytes (and the plan) do not depend on where the workspace is.
 *
 * Before a mutated config is given to the CLI, {@link safeToStart} reads it
 * with toolsearch's own reader (the built `parseFile` and
 * `readClientConfig`, as the CLI reads it, under both environments a run may
 * expand variables from): only when every server it would start is exactly
 * that Node running that script (no Node option before it, no variable but
 * `FUZZ_*` set) or that unreachable URL does the run go ahead as is.
 * Otherwise the run gets `--server` with a key no config has: the CLI
 * parses and validates the whole config, then stops with a usage error
 * before any server starts (src/formats/mcp/catalog-spec.ts) — the parser and
 * validator are fuzzed, nothing runs.
 */
import { fileURLToPath } from 'node:url';

export const MCP_SERVER_SCRIPT = fileURLToPath(new URL('./mcp-server.mjs', import.meta.url));
/** The one URL a fuzzed config may contact. */
export const UNREACHABLE_URL = 'http://127.0.0.1:1/mcp';
/** The `--server` key that stops a run after validation (no seed has it; a mutation cannot make it). */
export const NO_SUCH_SERVER = 'zz-fuzz-no-such-server';

/** Sets the variables the seeds expand (before any worker starts: workers copy the environment). */
export function setServerEnv(env = process.env) {
  env.FUZZ_NODE = process.execPath;
  env.FUZZ_MCP_SERVER = MCP_SERVER_SCRIPT;
}

const stdio = (mode, extra = {}) => ({ command: '${FUZZ_NODE}', args: ['${FUZZ_MCP_SERVER}', mode], ...extra });
const vsStdio = (mode, extra = {}) => ({
  type: 'stdio',
  command: '${env:FUZZ_NODE}',
  args: ['${env:FUZZ_MCP_SERVER}', mode],
  ...extra,
});
const json = (v) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);

/** The seed configs: `{rel, bytes}`, relative to the fixtures directory. */
export function configSeeds() {
  return [
    {
      rel: 'catalogs/fuzz-mcp-a.mcp.json',
      bytes: json({
        mcpServers: {
          github: stdio('ok', { env: { FUZZ_LABEL: '${FUZZ_LABEL:-x}' } }),
          'chat.v2': stdio('hostile'),
          off: { command: 'no-such-program', disabled: true },
          alwaysAllowed: { ...stdio('ok'), alwaysAllow: ['create_issue'], timeout: 5 },
        },
      }),
    },
    {
      rel: 'catalogs/fuzz-mcp-b.mcp.json',
      bytes: json({
        mcpServers: {
          docs: { type: 'http', url: '${DOCS_URL:-http://127.0.0.1:1/mcp}', headers: { Authorization: 'Bearer x' } },
          local: stdio('ok'),
        },
      }),
    },
    {
      rel: 'catalogs/fuzz-mcp-c.mcp.json',
      bytes: json({
        mcpServers: {
          deep: stdio('deep'),
          twice: stdio('dup'),
          gone: stdio('exit'),
          noise: stdio('garbage'),
          sse: { type: 'sse', url: UNREACHABLE_URL },
        },
      }),
    },
    {
      rel: 'catalogs/fuzz-mcp-d.vscode.json',
      bytes: json({
        inputs: [],
        servers: {
          github: vsStdio('ok', { env: { FUZZ_HOME: '${userHome}', FUZZ_DIR: '${workspaceFolder}' } }),
          remote: { type: 'http', url: UNREACHABLE_URL, headers: { Authorization: 'Bearer ${env:FUZZ_NODE}' } },
        },
      }),
    },
    {
      // A value VS Code would prompt for: an error at its place (the parser's path; nothing starts).
      rel: 'catalogs/fuzz-mcp-f.vscode.json',
      bytes: json({
        inputs: [{ type: 'promptString', id: 'token', description: 'A token', password: true }],
        servers: { remote: { type: 'http', url: UNREACHABLE_URL, headers: { Authorization: '${input:token}' } } },
      }),
    },
    {
      rel: 'catalogs/fuzz-mcp-e.vscode.json',
      bytes: json({ servers: { one: vsStdio('ok'), two: vsStdio('hostile') } }),
    },
  ];
}

/** Whether one server of a read config is one the fuzzer may start or contact. */
function harmless(target) {
  if (target.kind === 'stdio') {
    return (
      target.program === process.execPath &&
      target.args[0] === MCP_SERVER_SCRIPT &&
      Object.keys(target.env).every((k) => /^FUZZ_[A-Z_]*$/.test(k))
    );
  }
  return target.url === UNREACHABLE_URL;
}

/**
 * Whether the CLI may be given `file` as it is: it reads as no config at
 * all, or as one whose every server (disabled ones are never started) is
 * harmless, under each of `envs` (with `cwd` as VS Code's
 * `${workspaceFolder}`). Anything that throws is "no". `reader` is
 * `{parseFile, readClientConfig, mightBeClientConfig}` of the build.
 */
export function safeToStart(reader, file, envs, cwd) {
  try {
    if (!reader.mightBeClientConfig(file)) return true;
    const doc = reader.parseFile(file, {});
    for (const env of envs) {
      const config = reader.readClientConfig(doc, env, cwd);
      if (config === null) continue;
      if (!config.servers.every((s) => harmless(s.target))) return false;
    }
    return true;
  } catch {
    return false;
  }
}
