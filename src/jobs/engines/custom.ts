/**
 * A user's own search (`--engine ./my-search.js`): an ES module exporting
 * `search({ query, tools, maxResults })` that returns tool names, best first
 * — the AI SDK's custom-search contract (`toolSearch({ search })`), with the
 * limit passed in as well. It runs in a worker thread (custom-worker.ts);
 * every answer is checked: a name that is not a tool of the catalog, a value
 * that is not a list of names, a throw, or no answer within the timeout is an
 * error naming the module and the query. Duplicates are dropped and the list
 * cut to the limit, as the AI SDK does with a custom search's names.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { EngineOutcome, EngineTool } from '../../core/engines/types.js';
import { InputError, quote } from '../../io/errors.js';
import type { CustomWorkerData, FromCustomWorker, ToCustomWorker } from './custom-worker.js';

/** How long a module may take to load, and to answer one search (ms), unless told otherwise. */
export const DEFAULT_ENGINE_TIMEOUT_MS = 10_000;

/**
 * The compiled worker: beside this module in the tsc build (dist/jobs/engines/); from the CLI bundle
 * (dist/bundle/), dist/jobs/engines/; run from the sources (tests), the compiled one in dist/.
 */
export function customWorkerUrl(): URL {
  const here = new URL('./custom-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const fromBundle = new URL('../jobs/engines/custom-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(fromBundle))) return fromBundle;
  return new URL('../../../dist/jobs/engines/custom-worker.js', import.meta.url);
}

/** Whether an `--engine` value names a module (a path) rather than a built-in engine. */
export function isModulePath(value: string): boolean {
  return /[/\\]/.test(value) || /\.(m?js|cjs)$/.test(value);
}

/** A user's search module, running in its worker. */
export class CustomEngine {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (names: string[]) => void; reject: (err: Error) => void; timer: NodeJS.Timeout; query: string }
  >();
  private failed: Error | null = null;
  private readonly byName: ReadonlyMap<string, EngineTool>;

  private constructor(
    /** The module as given (`./my-search.js`): how reports and errors name it. */
    readonly label: string,
    private readonly worker: Worker,
    tools: readonly EngineTool[],
    private readonly timeoutMs: number,
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    worker.on('message', (m: FromCustomWorker) => {
      if (m.type !== 'result' && m.type !== 'error') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.type === 'error') p.reject(this.error(`${m.error} (query ${quote(p.query)})`));
      else p.resolve(m.names);
    });
    const fail = (err: Error): void => {
      this.failed = err;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        this.pending.delete(id);
        p.reject(err);
      }
    };
    worker.on('error', (err) => fail(this.error(`the module failed: ${err.name}: ${err.message}`)));
    worker.on('exit', (code) => fail(this.error(`the module ended its thread (exit code ${code})`)));
  }

  /** Loads the module in a worker; fails (InputError) when it cannot be loaded or exports no `search`. */
  static async start(
    modulePath: string,
    tools: readonly EngineTool[],
    options: {
      readonly timeoutMs?: number;
      /** How long loading may take (default: `timeoutMs`). */
      readonly loadTimeoutMs?: number;
      readonly cwd?: string;
      readonly workerUrl?: URL;
    } = {},
  ): Promise<CustomEngine> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
    const loadTimeoutMs = options.loadTimeoutMs ?? timeoutMs;
    const abs = path.resolve(options.cwd ?? process.cwd(), modulePath);
    const at = { file: modulePath, line: 0, column: 0 };
    if (!existsSync(abs)) throw new InputError(`--engine: no such module file (${quote(abs)})`, at);
    const data: CustomWorkerData = {
      moduleUrl: pathToFileURL(abs).href,
      tools: tools.map((t) => ({ name: t.name, description: t.description })),
    };
    // Loaded here, not with this module: every `search` loads this module, and node:worker_threads (with Node's
    // stream modules) costs a few milliseconds of a start on Node 20.
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new Worker(options.workerUrl ?? customWorkerUrl(), { workerData: data, stdout: true, stderr: true });
    // What the module prints is not ours to show on the CLI's streams.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new InputError(`--engine: the module did not load within ${loadTimeoutMs} ms (--engine-timeout)`, at));
      }, loadTimeoutMs);
      const done = (err: Error | null): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (err) {
          void worker.terminate();
          reject(err);
        } else resolve();
      };
      const onMessage = (m: FromCustomWorker): void => {
        if (m.type === 'ready') done(null);
        else if (m.type === 'fatal') done(new InputError(`--engine: ${m.error}`, at));
      };
      const onError = (err: Error): void =>
        done(new InputError(`--engine: cannot load the module: ${err.name}: ${err.message}`, at));
      const onExit = (code: number): void =>
        done(new InputError(`--engine: the module ended its thread while loading (exit code ${code})`, at));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return new CustomEngine(modulePath, worker, tools, timeoutMs);
  }

  private error(message: string): InputError {
    return new InputError(`--engine: ${message}`, { file: this.label, line: 0, column: 0 });
  }

  /** The module's names for a query: checked, without duplicates, cut to `maxResults`. */
  async search(query: string, maxResults: number): Promise<EngineOutcome> {
    if (this.failed) throw this.failed;
    const id = this.nextId++;
    const names = await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const err = this.error(
          `search did not answer within ${this.timeoutMs} ms (query ${quote(query)}); --engine-timeout sets the limit`,
        );
        this.failed = err;
        void this.worker.terminate();
        reject(err);
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, query });
      this.worker.postMessage({ id, query, maxResults } satisfies ToCustomWorker);
    });
    const unknown = names.find((n) => !this.byName.has(n));
    if (unknown !== undefined)
      throw this.error(
        `search returned ${quote(unknown)}, which is not a tool of the catalog (query ${quote(query)}); ` +
          'return the names of the tools it was given',
      );
    const matches = [...new Set(names)].slice(0, maxResults);
    // The AI SDK's shape: a custom search's names become `{ tools: [{ name, description }] }`.
    const result = { tools: matches.map((name) => ({ name, description: this.byName.get(name)!.description })) };
    return { ok: true, matches, scores: null, result, total: matches.length, limit: maxResults };
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
