/**
 * When a tool becomes visible, per engine, as plain state machines over
 * model calls (steps). The reference's rule is the middleware (`run.ts`);
 * these are the AI SDK's and Mastra's, each checked step by step against what
 * its package really sends to a mock model (test/core/engines/).
 */
import { MASTRA_DEFAULTS } from './mastra.js';
import { objectKeyOrder } from './types.js';

/**
 * The AI SDK 7's discovered set (`createToolSearchState`): one per
 * generation (`generateText` / `streamText` call). A step is sent every tool
 * of the `tools` object that is not deferred, plus the deferred ones a search
 * result of an earlier step of the same generation named, in the object's
 * key order.
 */
export class AiSdkDiscovery {
  private readonly discovered = new Set<string>();
  private readonly order: readonly string[];

  constructor(
    /** The `tools` object's keys in the order written (the search tool among them). */
    tools: readonly string[],
    private readonly deferred: ReadonlySet<string>,
  ) {
    this.order = objectKeyOrder(tools);
  }

  /** What the next step is sent. */
  visible(): string[] {
    return this.order.filter((n) => !this.deferred.has(n) || this.discovered.has(n));
  }

  /** A search result of this step: its tools are sent from the next step on. */
  found(names: readonly string[]): string[] {
    const added: string[] = [];
    for (const n of names) {
      if (!this.deferred.has(n) || this.discovered.has(n)) continue;
      this.discovered.add(n);
      added.push(n);
    }
    return added;
  }

  has(name: string): boolean {
    return this.discovered.has(name);
  }

  /** A new `generateText`: nothing is discovered. Returns what was dropped. */
  newGeneration(): string[] {
    const dropped = [...this.discovered];
    this.discovered.clear();
    return dropped;
  }
}

/** What the Mastra store did before a step, when times are known. */
export type TtlCheck =
  | { readonly kind: 'kept' }
  /** The gap exceeds ttl plus the cleanup interval: the thread's loaded tools were dropped. */
  | { readonly kind: 'expired'; readonly dropped: readonly string[]; readonly gapMs: number }
  /** The gap exceeds ttl but not ttl plus the interval: dropped only if a cleanup ran in between. */
  | { readonly kind: 'maybe'; readonly tools: readonly string[]; readonly gapMs: number };

/**
 * How Mastra's `Agent.formatTools` renames a tool key a provider would
 * refuse (a character outside `[a-zA-Z0-9_-]`, a first character that is not
 * a letter or `_`, more than 63 characters): invalid characters become `_`, a
 * `_` goes in front when needed, and the key is cut at 63. Null when the key
 * is kept.
 */
export function mastraFormattedKey(key: string): string | null {
  const invalid = /[^a-zA-Z0-9_-]/g;
  if (!(key.length > 63 || /[^a-zA-Z0-9_-]/.test(key) || !/[a-zA-Z_]/.test(key[0] ?? ''))) return null;
  let newKey = key.replace(invalid, '_');
  if (!/[a-zA-Z_]/.test(newKey[0] ?? '')) newKey = `_${newKey}`;
  return newKey.slice(0, 63);
}

/**
 * Mastra's in-memory loaded-tool store (`LegacyMapLoadedToolStore`) for one
 * thread, and what a step is sent. Each `generate` resolves the agent's tools
 * once — its own tools and the tools loaded so far, keys renamed by
 * `formatTools` ({@link mastraFormattedKey}; a renamed key moves to the end) —
 * and each step is sent `search_tools`, `load_tool` (unless autoLoad), those,
 * then every loaded tool under its own name, in load order (JavaScript key
 * order over the whole). Every step reads the store, which counts as an
 * access; a cleanup every `max(ttl / 2, 60 s)` drops a thread not accessed for
 * more than `ttl` ms (`ttl <= 0`: never).
 */
export class MastraLoadedStore {
  private readonly loaded = new Set<string>();
  private lastAccess: number | null = null;
  /** The agent's tools as this `generate` resolved them (formatted keys). */
  private resolved: string[];

  constructor(
    private readonly agentTools: readonly string[],
    private readonly options: { readonly autoLoad?: boolean; readonly ttl?: number } = {},
  ) {
    this.resolved = formatKeys(agentTools);
  }

  get ttl(): number {
    return this.options.ttl ?? MASTRA_DEFAULTS.ttl;
  }

  /** The cleanup interval of the store. */
  get cleanupInterval(): number {
    return Math.max(this.ttl / 2, 60_000);
  }

  /** The loaded tools, in load order. */
  names(): ReadonlySet<string> {
    return this.loaded;
  }

  /** A new `generate` call: the agent resolves its tools again, with the tools loaded so far. */
  newGenerate(): void {
    this.resolved = formatKeys([...this.agentTools, ...this.loaded]);
  }

  /**
   * Before a step at `time` (ms; null when the recording does not date it):
   * the TTL check against the last access, then the access itself. A
   * recording may date only some messages: `time` is then the latest date
   * before the step (a lower bound) and `upper` the earliest date at or after
   * it, which is what the next check measures from (null: unknown, no check).
   */
  beforeStep(time: number | null, upper: number | null = time): TtlCheck {
    let check: TtlCheck = { kind: 'kept' };
    if (time !== null && this.lastAccess !== null && this.ttl > 0 && this.loaded.size > 0) {
      const gapMs = time - this.lastAccess;
      if (gapMs > this.ttl + this.cleanupInterval) {
        check = { kind: 'expired', dropped: [...this.loaded], gapMs };
        this.loaded.clear();
      } else if (gapMs > this.ttl) check = { kind: 'maybe', tools: [...this.loaded], gapMs };
    }
    this.lastAccess = upper;
    return check;
  }

  /** What the step is sent. */
  visible(): string[] {
    const meta = this.options.autoLoad === true ? ['search_tools'] : ['search_tools', 'load_tool'];
    return objectKeyOrder(dedupe([...meta, ...this.resolved, ...this.loaded]));
  }

  /** Tools a `load_tool` (or, with autoLoad, a search) of this step loaded, at `time` when known. */
  add(names: readonly string[], time: number | null): string[] {
    const added: string[] = [];
    for (const n of names) {
      if (this.loaded.has(n)) continue;
      this.loaded.add(n);
      added.push(n);
    }
    if (time !== null && names.length > 0) this.lastAccess = Math.max(this.lastAccess ?? time, time);
    return added;
  }
}

function dedupe(names: readonly string[]): string[] {
  return [...new Set(names)];
}

/** An object's keys after `formatTools`: kept keys in place, renamed ones appended in the order renamed. */
function formatKeys(names: readonly string[]): string[] {
  const keys = objectKeyOrder(dedupe(names));
  const kept: string[] = [];
  const renamed: string[] = [];
  for (const k of keys) {
    const n = mastraFormattedKey(k);
    if (n === null) kept.push(k);
    else renamed.push(n);
  }
  return dedupe([...kept, ...renamed]);
}
