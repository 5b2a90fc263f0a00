/**
 * The worker thread that runs a user's search module (`--engine
 * ./my-search.js`): it imports the module once, then answers one search per
 * message. The module runs here, not on the CLI's thread, so that one that
 * hangs (an endless loop, a promise that never settles) is ended by the host
 * after its timeout, and one that throws or returns garbage is reported, never
 * trusted.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** What the host gives the worker. */
export interface CustomWorkerData {
  /** The module's file URL. */
  readonly moduleUrl: string;
  /** The searchable tools, in catalog order. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string }>;
}

/** Messages to the worker. */
export type ToCustomWorker = { readonly id: number; readonly query: string; readonly maxResults: number };

/** Messages from the worker. */
export type FromCustomWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'fatal'; readonly error: string }
  | { readonly type: 'result'; readonly id: number; readonly names: string[] }
  | { readonly type: 'error'; readonly id: number; readonly error: string };

type SearchFn = (input: {
  query: string;
  tools: Array<{ name: string; description: string }>;
  maxResults: number;
}) => unknown;

function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `a thrown ${typeof err}: ${String(err)}`;
}

/** What a value is, for an error message about what the module returned. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const bad = value.findIndex((v) => typeof v !== 'string');
    return `a list whose item ${bad} is ${value[bad] === null ? 'null' : typeof value[bad]}`;
  }
  return typeof value === 'object' ? 'an object' : typeof value;
}

const port = parentPort;
if (port) {
  const data = workerData as CustomWorkerData;
  (async () => {
    let search: SearchFn;
    try {
      const mod = (await import(data.moduleUrl)) as { search?: unknown; default?: unknown };
      const fn =
        typeof mod.search === 'function'
          ? mod.search
          : typeof (mod.default as { search?: unknown } | undefined)?.search === 'function'
            ? (mod.default as { search: unknown }).search
            : null;
      if (fn === null) {
        const exported = Object.keys(mod);
        port.postMessage({
          type: 'fatal',
          error:
            'the module does not export a function "search" ' +
            `(it exports ${exported.length === 0 ? 'nothing' : exported.map((k) => JSON.stringify(k)).join(', ')}); ` +
            'write: export function search({ query, tools, maxResults }) { return [...names] }',
        } satisfies FromCustomWorker);
        return;
      }
      search = fn as SearchFn;
    } catch (err) {
      port.postMessage({
        type: 'fatal',
        error: `cannot load the module: ${errorText(err)}`,
      } satisfies FromCustomWorker);
      return;
    }
    port.postMessage({ type: 'ready' } satisfies FromCustomWorker);
    port.on('message', (m: ToCustomWorker) => {
      (async () => {
        try {
          // A fresh copy each time, as the AI SDK hands a custom search its tools: the module cannot change ours.
          const out = await search({
            query: m.query,
            tools: data.tools.map((t) => ({ name: t.name, description: t.description })),
            maxResults: m.maxResults,
          });
          if (!Array.isArray(out) || out.some((n) => typeof n !== 'string')) {
            port.postMessage({
              type: 'error',
              id: m.id,
              error: `search returned ${describe(out)}, not a list of tool names`,
            } satisfies FromCustomWorker);
            return;
          }
          port.postMessage({ type: 'result', id: m.id, names: out as string[] } satisfies FromCustomWorker);
        } catch (err) {
          port.postMessage({
            type: 'error',
            id: m.id,
            error: `search threw ${errorText(err)}`,
          } satisfies FromCustomWorker);
        }
      })();
    });
  })();
}
