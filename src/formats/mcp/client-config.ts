/**
 * MCP client configs read as catalogs: the file an agent host keeps its
 * servers in, each server started (or contacted) and its tools listed.
 *
 * Two forms, detected by shape (an object without `tools`):
 * - `mcpServers` (Claude Code's `.mcp.json`, `claude_desktop_config.json`,
 *   Cursor's `mcp.json`): `{"mcpServers": {"<key>": entry}}`;
 * - VS Code's `.vscode/mcp.json`: `{"servers": {"<key>": entry}, "inputs": [...]}`.
 *
 * An entry is a stdio server `{command, args?, env?, cwd?}` (`type` absent or
 * `"stdio"`) or a remote one `{type: "http" | "sse", url, headers?}` (`type`
 * absent with a `url`: http, as Cursor writes it).
 *
 * Variables, as the hosts expand them (https://code.claude.com/docs/en/mcp,
 * "Environment variable expansion in .mcp.json"; VS Code's "MCP configuration
 * reference"):
 * - `mcpServers` form: `${VAR}` and `${VAR:-default}` in `command`, `args`,
 *   `env`, `url` and `headers`. A variable that is not set and has no default
 *   is an error (Claude Code refuses such a config too).
 * - `servers` form: `${env:VAR}`, `${workspaceFolder}` (our working
 *   directory), `${userHome}`; `${input:ID}` (a value VS Code prompts for) is
 *   an error naming the input, as is any other variable.
 *
 * Tools are named as Claude Code names them: `mcp__<key>__<tool>`, where key
 * and tool have every character outside `[A-Za-z0-9_-]` replaced by `_` (case
 * and hyphens kept: Claude Code's `normalizeNameForMCP`). The names are those
 * the model sees, so a recording of that host matches the catalog.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { InputError } from '../../io/errors.js';
import { errorAt, kindName, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';

/** Which form a config has. */
export type ClientConfigForm = 'mcpServers' | 'servers';

/** Where and how to reach one server of a config. */
export type ClientServerTarget =
  | {
      readonly kind: 'stdio';
      readonly program: string;
      readonly args: readonly string[];
      /** Only the variables the entry sets (the server also inherits ours). */
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | { readonly kind: 'http' | 'sse'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** One server of a config. */
export interface ClientConfigServer {
  /** The key as written in the config. */
  readonly key: string;
  /** The server part of its tools' names (Claude Code's normalization of the key). */
  readonly toolPrefix: string;
  readonly target: ClientServerTarget;
  /** An `InputError` located at the server's key: `server "<key>": <message>`. */
  readonly fail: (message: string) => InputError;
  /** Where its key is (its tools' source). */
  readonly location: { readonly file: string; readonly line: number; readonly column: number };
}

/** A config file read: its servers in file order, and what was read but ignored. */
export interface ClientConfig {
  readonly file: string;
  readonly form: ClientConfigForm;
  readonly servers: readonly ClientConfigServer[];
  readonly warnings: readonly string[];
}

/** Claude Code's name normalization (`normalizeNameForMCP`): characters outside `[A-Za-z0-9_-]` become `_`. */
export function claudeCodeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** A client config's key (`mcpServers` or `servers`, quoted or not) followed by its colon. */
const CLIENT_CONFIG_KEY = /\b(?:mcpServers|servers)\b["']?\s*:/;

/** Bytes of a file looked at by {@link mightBeClientConfig}. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Whether a catalog file may be a client config, decided from its first
 * 64 KiB only (no parser loaded, a large catalog not read twice): a key
 * `mcpServers` or `servers`. A file that cannot be read is not one (its
 * loader reports why).
 */
export function mightBeClientConfig(file: string): boolean {
  if (file === '-' || file.startsWith('mcp:')) return false;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.allocUnsafe(SNIFF_BYTES);
    const head = buf.subarray(0, readSync(fd, buf, 0, SNIFF_BYTES, 0));
    // Both keys contain `ervers`: most catalogs are told apart without decoding the text.
    return head.includes('ervers') && CLIENT_CONFIG_KEY.test(head.toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The form of a parsed document, or null when it is not a client config. */
export function clientConfigForm(doc: ParsedDocument): ClientConfigForm | null {
  const root = doc.root;
  if (root.kind !== 'object' || root.members.has('tools')) return null;
  if (root.members.has('mcpServers')) return 'mcpServers';
  // `servers` is a common word: VS Code's form needs one entry that looks like a server.
  const servers = root.members.get('servers')?.value;
  if (servers?.kind !== 'object') return null;
  const looksLikeServer = (n: Node): boolean =>
    n.kind === 'object' && (n.members.has('command') || n.members.has('url'));
  return [...servers.members.values()].some((m) => looksLikeServer(m.value)) ? 'servers' : null;
}

const STDIO_KEYS = ['type', 'command', 'args', 'env', 'cwd'];
const REMOTE_KEYS = ['type', 'url', 'headers'];
/** Keys hosts write that change nothing about the tools listed (permissions, timeouts, OAuth, dev reload). */
const HOST_ONLY_KEYS = new Set([
  'disabled',
  'alwaysAllow',
  'autoApprove',
  'timeout',
  'oauth',
  'dev',
  'description',
  'disabledTools',
  'trust',
]);

type Expand = (text: string, at: Node, what: string) => string;

/**
 * Expands `${VAR}` and `${VAR:-default}` as Claude Code does: the text between
 * `${` and the next `}` is the name, up to a first `:-` that starts the
 * default; a set variable (even empty) wins over the default.
 */
export function expandClaudeCode(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
    const cut = inner.indexOf(':-');
    const name = cut < 0 ? inner : inner.slice(0, cut);
    const fallback = cut < 0 ? undefined : inner.slice(cut + 2);
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { value, missing };
}

/** Expands VS Code's `${env:VAR}`, `${workspaceFolder}` and `${userHome}`; any other variable is reported. */
export function expandVsCode(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { value: string; unsupported: string[]; inputs: string[] } {
  const unsupported: string[] = [];
  const inputs: string[] = [];
  const value = text.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
    if (inner.startsWith('env:')) return env[inner.slice(4)] ?? '';
    if (inner === 'workspaceFolder') return cwd;
    // node:os loaded only here: this module is loaded by every search (to tell a client config from a catalog).
    if (inner === 'userHome') return (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();
    if (inner.startsWith('input:')) inputs.push(inner.slice(6));
    else unsupported.push(inner);
    return whole;
  });
  return { value, unsupported, inputs };
}

function expander(
  doc: ParsedDocument,
  form: ClientConfigForm,
  key: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Expand {
  return (text, at, what) => {
    if (form === 'mcpServers') {
      const { value, missing } = expandClaudeCode(text, env);
      if (missing.length > 0) {
        throw errorAt(
          doc,
          at,
          `server ${JSON.stringify(key)}: \${${missing[0]}} in ${what} is not set and ` +
            `has no default (write \${${missing[0]}:-default} for one)`,
        );
      }
      return value;
    }
    const { value, unsupported, inputs } = expandVsCode(text, env, cwd);
    if (inputs.length > 0) {
      throw errorAt(
        doc,
        at,
        `server ${JSON.stringify(key)}: \${input:${inputs[0]}} in ${what} is a value VS Code prompts for, which ` +
          `toolsearch cannot do: write the value, or \${env:NAME} to take it from the environment`,
      );
    }
    if (unsupported.length > 0) {
      throw errorAt(
        doc,
        at,
        `server ${JSON.stringify(key)}: \${${unsupported[0]}} in ${what} is not a variable toolsearch ` +
          `expands (it expands \${env:NAME}, \${workspaceFolder} and \${userHome})`,
      );
    }
    return value;
  };
}

function stringField(
  doc: ParsedDocument,
  entry: ObjectNode,
  name: string,
  key: string,
): { node: Node; value: string } | undefined {
  const node = entry.members.get(name)?.value;
  if (node === undefined) return undefined;
  if (node.kind !== 'string')
    throw errorAt(doc, node, `server ${JSON.stringify(key)}: "${name}" must be a string, found ${kindName(node)}`);
  return { node, value: node.value };
}

function stringMap(
  doc: ParsedDocument,
  entry: ObjectNode,
  name: string,
  key: string,
  expand: Expand,
): Record<string, string> {
  const node = entry.members.get(name)?.value;
  const out: Record<string, string> = {};
  if (node === undefined) return out;
  if (node.kind !== 'object')
    throw errorAt(
      doc,
      node,
      `server ${JSON.stringify(key)}: "${name}" must be an object of strings, found ${kindName(node)}`,
    );
  for (const m of node.members.values()) {
    if (m.value.kind !== 'string') {
      throw errorAt(
        doc,
        m.value,
        `server ${JSON.stringify(key)}: ${name}.${m.key} must be a string, found ${kindName(m.value)}`,
      );
    }
    Object.defineProperty(out, m.key, {
      value: expand(m.value.value, m.value, `${name}.${m.key}`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function readEntry(
  doc: ParsedDocument,
  form: ClientConfigForm,
  key: string,
  entry: ObjectNode,
  expand: Expand,
  warnings: string[],
): ClientServerTarget {
  const q = JSON.stringify(key);
  const type = stringField(doc, entry, 'type', key);
  const command = stringField(doc, entry, 'command', key);
  const url = stringField(doc, entry, 'url', key);
  let kind: ClientServerTarget['kind'];
  if (type !== undefined) {
    if (type.value !== 'stdio' && type.value !== 'http' && type.value !== 'sse') {
      throw errorAt(
        doc,
        type.node,
        `server ${q}: type ${JSON.stringify(type.value)} is not one toolsearch reads (stdio, http or sse)`,
      );
    }
    kind = type.value;
  } else if (command !== undefined) kind = 'stdio';
  else if (url !== undefined) kind = 'http';
  else throw errorAt(doc, entry, `server ${q} has neither "command" (a stdio server) nor "url" (a remote one)`);

  const known = kind === 'stdio' ? STDIO_KEYS : REMOTE_KEYS;
  for (const m of entry.members.values()) {
    if (known.includes(m.key) || HOST_ONLY_KEYS.has(m.key)) continue;
    const { line, column } = doc.lines.position(m.keyOffset);
    warnings.push(
      `${doc.file}:${line}:${column}: server ${q}: ${JSON.stringify(m.key)} is not read for a ${kind} server (ignored)`,
    );
  }

  if (kind === 'stdio') {
    if (command === undefined) throw errorAt(doc, entry, `server ${q}: a stdio server needs "command"`);
    const program = expand(command.value, command.node, 'command');
    if (program.trim() === '') throw errorAt(doc, command.node, `server ${q}: "command" is empty`);
    const argsNode = entry.members.get('args')?.value;
    const args: string[] = [];
    if (argsNode !== undefined) {
      if (argsNode.kind !== 'array')
        throw errorAt(doc, argsNode, `server ${q}: "args" must be a list of strings, found ${kindName(argsNode)}`);
      argsNode.items.forEach((a, i) => {
        if (a.kind !== 'string')
          throw errorAt(doc, a, `server ${q}: args[${i}] must be a string, found ${kindName(a)}`);
        args.push(expand(a.value, a, `args[${i}]`));
      });
    }
    const env = stringMap(doc, entry, 'env', key, expand);
    const cwd = stringField(doc, entry, 'cwd', key);
    return { kind, program, args, env, ...(cwd !== undefined ? { cwd: expand(cwd.value, cwd.node, 'cwd') } : {}) };
  }
  if (url === undefined)
    throw errorAt(doc, entry, `server ${q}: a${kind === 'http' ? 'n http' : ' sse'} server needs "url"`);
  const headers = stringMap(doc, entry, 'headers', key, expand);
  return { kind, url: expand(url.value, url.node, 'url'), headers };
}

/**
 * Reads the servers of a client config (null when the document is not one).
 * `env` is the environment variables are expanded from; `cwd` stands for
 * VS Code's `${workspaceFolder}`. Entries with `"disabled": true` are left
 * out, with a warning.
 */
export function readClientConfig(
  doc: ParsedDocument,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): ClientConfig | null {
  const form = clientConfigForm(doc);
  if (form === null) return null;
  const root = doc.root as ObjectNode;
  const holder = root.members.get(form)!.value;
  if (holder.kind !== 'object')
    throw errorAt(doc, holder, `"${form}" must be an object of servers, found ${kindName(holder)}`);
  const warnings: string[] = [];
  for (const m of root.members.values()) {
    if (m.key === form || (form === 'servers' && m.key === 'inputs')) continue;
    const { line, column } = doc.lines.position(m.keyOffset);
    warnings.push(
      `${doc.file}:${line}:${column}: ${JSON.stringify(m.key)} is not read from an MCP client config (ignored)`,
    );
  }
  const servers: ClientConfigServer[] = [];
  for (const m of holder.members.values()) {
    const key = m.key;
    const keyAt = m.keyOffset;
    if (m.value.kind !== 'object')
      throw errorAt(doc, m.value, `server ${JSON.stringify(key)} must be an object, found ${kindName(m.value)}`);
    const disabled = m.value.members.get('disabled')?.value;
    if (disabled?.kind === 'bool' && disabled.value) {
      const { line, column } = doc.lines.position(keyAt);
      warnings.push(`${doc.file}:${line}:${column}: server ${JSON.stringify(key)} is disabled: its tools are left out`);
      continue;
    }
    const target = readEntry(doc, form, key, m.value, expander(doc, form, key, env, cwd), warnings);
    const { line, column } = doc.lines.position(keyAt);
    servers.push({
      key,
      toolPrefix: claudeCodeName(key),
      target,
      fail: (message) => errorAt(doc, keyAt, `server ${JSON.stringify(key)}: ${message}`),
      location: { file: doc.file, line, column },
    });
  }
  return { file: doc.file, form, servers, warnings };
}
