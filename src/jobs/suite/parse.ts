/**
 * Reading a suite file (YAML or JSON) into a validated {@link Suite}. Every
 * problem is an `InputError` at `file:line:column` with a caret excerpt
 * (exit 2): unknown keys (with a suggestion), wrong types, a case that checks
 * nothing, contradictory expectations, duplicate case names.
 *
 * Over 400 lines: one validator per suite key, each beside its messages.
 */
import { CATALOG_FORMATS } from '../../formats/types.js';
import { FORMAT_CHOICES } from '../../formats/recordings/registry.js';
import { dirname, isAbsolute, join } from 'node:path';
import { type Mode, MODES } from '../../core/types.js';
import { editDistance } from '../../io/edit-distance.js';
import { quote, type SourceLocation } from '../../io/errors.js';
import {
  errorAt,
  formatLocation,
  kindName,
  locate,
  toJsonValue,
  type Node,
  type ObjectNode,
  type ParsedDocument,
} from '../../io/nodes.js';
import type { CatalogFormat, TranscriptFormat } from '../../formats/types.js';
import { isMcpSpec } from '../../formats/mcp/catalog-spec.js';
import { type EngineSpec, parseEngineSpec } from '../engines/engine.js';
import type {
  CatalogRef,
  EngineRef,
  ListAt,
  NameRef,
  ResultExpectations,
  SearchCase,
  SelectCase,
  SimulateCase,
  SimulateExpectations,
  Suite,
  SuiteCase,
} from './types.js';

/** A simulate case's `format:` choices: every recording format (the registry's list), or auto. */
export const TRANSCRIPT_FORMATS = FORMAT_CHOICES;

const ENGINE_KEYS = ['engine', 'top_k', 'min_score'] as const;
const SUITE_KEYS = ['name', 'description', 'catalog', 'catalog_format', 'prefix', ...ENGINE_KEYS, 'cases'] as const;
const COMMON_KEYS = [
  'name',
  'description',
  'skip',
  'record',
  'catalog',
  'catalog_format',
  'prefix',
  ...ENGINE_KEYS,
] as const;
const INPUT_KEYS = ['query', 'args', 'select', 'transcript'] as const;
const RESULT_KEYS = ['includes', 'excludes', 'exact', 'first', 'rank_at_most', 'none', 'error'] as const;
const SIMULATE_KEYS = ['visible_at', 'deferred_at', 'no_violations', 'same_as_recorded'] as const;
const KEYS_BY_KIND = {
  search: [...COMMON_KEYS, 'query', 'args', 'max_results', ...RESULT_KEYS],
  select: [...COMMON_KEYS, 'select', ...RESULT_KEYS.filter((k) => k !== 'error')],
  simulate: [...COMMON_KEYS, 'transcript', 'format', 'mode', 'static', ...SIMULATE_KEYS],
} as const;
const ALL_CASE_KEYS = [...new Set([...KEYS_BY_KIND.search, ...KEYS_BY_KIND.select, ...KEYS_BY_KIND.simulate])];

function suggest(key: string, known: readonly string[]): string {
  const lower = key.toLowerCase();
  const best = known
    .map((k) => ({ k, d: editDistance(lower, k) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(x.k.length / 3)) || x.k.startsWith(lower) || lower.startsWith(x.k))
    .sort((a, b) => a.d - b.d)[0];
  return best ? ` (did you mean ${quote(best.k)}?)` : '';
}

/** Reads and validates one suite file. */
export class SuiteParser {
  private readonly dir: string;

  constructor(private readonly doc: ParsedDocument) {
    this.dir = dirname(doc.file);
  }

  private fail(at: Node | number, message: string): never {
    throw errorAt(this.doc, at, message);
  }

  private at(node: Node | number): SourceLocation {
    return locate(this.doc, node);
  }

  private object(node: Node, what: string): ObjectNode {
    if (node.kind !== 'object') this.fail(node, `${what} must be a mapping, not ${kindName(node)}`);
    return node;
  }

  private checkKeys(
    obj: ObjectNode,
    allowed: readonly string[],
    where: string,
    suggestFrom: readonly string[] = allowed,
  ): void {
    for (const m of obj.members.values()) {
      if (!allowed.includes(m.key)) {
        const known = suggestFrom.includes(m.key);
        this.fail(
          m.keyOffset,
          known
            ? `${quote(m.key)} does not apply to ${where}`
            : `unknown key ${quote(m.key)} in ${where}${suggest(m.key, suggestFrom)}`,
        );
      }
    }
  }

  private string(node: Node, what: string, nonEmpty = true): string {
    if (node.kind !== 'string') this.fail(node, `${what} must be a string, not ${kindName(node)}`);
    if (nonEmpty && node.value.trim() === '') this.fail(node, `${what} must not be empty`);
    return node.value;
  }

  private bool(node: Node, what: string): boolean {
    if (node.kind !== 'bool') this.fail(node, `${what} must be true or false, not ${kindName(node)}`);
    return node.value;
  }

  private integer(node: Node, what: string, min: number | null): number {
    if (node.kind !== 'number' || !Number.isSafeInteger(node.value))
      this.fail(node, `${what} must be an integer, not ${node.kind === 'number' ? node.raw : kindName(node)}`);
    if (min !== null && node.value < min) this.fail(node, `${what} must be at least ${min}`);
    return node.value;
  }

  private choice<T extends string>(node: Node, what: string, choices: readonly T[]): T {
    const s = this.string(node, what);
    if (!(choices as readonly string[]).includes(s))
      this.fail(node, `${what} must be one of ${choices.join(', ')}, not ${quote(s)}`);
    return s as T;
  }

  /** A tool name or a list of them (a single string is one name). */
  private names(node: Node, what: string, allowString = true): NameRef[] {
    if (node.kind === 'string' && allowString) return [this.nameRef(node, what)];
    if (node.kind !== 'array')
      this.fail(
        node,
        `${what} must be a list of tool names${allowString ? ' or one name' : ''}, not ${kindName(node)}`,
      );
    return node.items.map((item) => this.nameRef(item, `each name of ${what}`));
  }

  private nameRef(node: Node, what: string): NameRef {
    return { name: this.string(node, what), location: this.at(node), offset: node.offset };
  }

  private resolve(path: string): string {
    return isAbsolute(path) ? path : join(this.dir, path);
  }

  private catalogRef(obj: ObjectNode, where: string): CatalogRef | null {
    const node = obj.members.get('catalog')?.value;
    const fmt = obj.members.get('catalog_format')?.value;
    const prefix = obj.members.get('prefix')?.value;
    if (!node) {
      if (fmt) this.fail(fmt, `catalog_format without a catalog in ${where}`);
      if (prefix) this.fail(prefix, `prefix without a catalog in ${where}`);
      return null;
    }
    let files: string[];
    if (node.kind === 'string') files = [this.string(node, 'catalog')];
    else if (node.kind === 'array' && node.items.length > 0)
      files = node.items.map((i) => this.string(i, 'each catalog'));
    else this.fail(node, `catalog must be a file path or a non-empty list of them, not ${kindName(node)}`);
    return {
      // A live MCP server (`mcp:<command line>` or `mcp:<url>`) is no path: it is kept as written.
      files: files.map((f) => (isMcpSpec(f) ? f : this.resolve(f))),
      format: fmt ? this.choice<CatalogFormat | 'auto'>(fmt, 'catalog_format', CATALOG_FORMATS) : 'auto',
      prefix: prefix ? this.string(prefix, 'prefix') : null,
      location: this.at(node),
      offset: node.offset,
    };
  }

  /** The whole suite. */
  suite(): Suite {
    const root = this.object(this.doc.root, 'a suite');
    this.checkKeys(root, SUITE_KEYS, 'the suite', [...SUITE_KEYS, ...ALL_CASE_KEYS]);
    const nameNode = root.members.get('name')?.value;
    const desc = root.members.get('description')?.value;
    if (desc) this.string(desc, 'description', false);
    const casesNode = root.members.get('cases')?.value;
    if (!casesNode) this.fail(root, 'a suite needs "cases": a list of test cases');
    if (casesNode.kind !== 'array') this.fail(casesNode, `cases must be a list, not ${kindName(casesNode)}`);
    if (casesNode.items.length === 0) this.fail(casesNode, 'cases is empty: a suite needs at least one case');
    const catalog = this.catalogRef(root, 'the suite');
    const engine = this.engineRef(root, null);
    const seen = new Map<string, Node>();
    const cases = casesNode.items.map((item, index) => {
      const c = this.testCase(item, index, catalog, engine);
      const first = seen.get(c.name);
      if (first)
        this.fail(
          this.object(item, 'a case').members.get('name')!.value,
          `duplicate case name ${quote(c.name)} (first at ${formatLocation(this.at(first))})`,
        );
      seen.set(c.name, item);
      return c;
    });
    return {
      file: this.doc.file,
      name: nameNode ? this.string(nameNode, 'name') : this.doc.file,
      syntax: this.doc.syntax === 'yaml' ? 'yaml' : 'json',
      catalog,
      cases,
    };
  }

  /**
   * `engine:` (eino, ai-sdk, mastra, or a module path relative to the suite) and Mastra's `top_k`,
   * `min_score`, on the suite or a case (a case's own override the suite's).
   */
  private engineRef(obj: ObjectNode, inherited: EngineRef | null): EngineRef | null {
    const node = obj.members.get('engine')?.value;
    const topK = obj.members.get('top_k');
    const minScore = obj.members.get('min_score');
    let ref = inherited;
    if (node) {
      const text = this.string(node, 'engine');
      let spec: EngineSpec;
      try {
        spec = parseEngineSpec(text);
      } catch (err) {
        this.fail(node, (err as Error).message);
      }
      ref = {
        spec: spec.kind === 'module' ? { kind: 'module', path: this.resolve(spec.path) } : spec,
        name: text,
        params: {},
        location: this.at(node),
      };
    }
    if (!topK && !minScore) return ref;
    const at = (topK ?? minScore)!;
    if (ref === null || ref.spec.kind !== 'builtin' || ref.spec.id !== 'mastra')
      this.fail(
        at.keyOffset,
        `${at === topK ? 'top_k' : 'min_score'} is a parameter of the mastra engine: add engine: mastra`,
      );
    const params = { ...ref.params };
    if (topK) (params as { topK?: number }).topK = this.integer(topK.value, 'top_k', 1);
    if (minScore) {
      if (minScore.value.kind !== 'number')
        this.fail(minScore.value, `min_score must be a number, not ${kindName(minScore.value)}`);
      (params as { minScore?: number }).minScore = minScore.value.value;
    }
    return { ...ref, params };
  }

  private testCase(
    node: Node,
    index: number,
    suiteCatalog: CatalogRef | null,
    suiteEngine: EngineRef | null,
  ): SuiteCase {
    const obj = this.object(node, `case ${index + 1}`);
    const nameNode = obj.members.get('name')?.value;
    if (!nameNode) this.fail(obj, `case ${index + 1} needs a "name"`);
    const name = this.string(nameNode, 'name');
    const where = `case ${quote(name)}`;
    const inputs = INPUT_KEYS.filter((k) => obj.members.has(k));
    if (inputs.length === 0)
      this.fail(obj, `${where} needs one of: query, args (a search), select, transcript (a simulation)`);
    if (inputs.length > 1)
      this.fail(
        obj.members.get(inputs[1]!)!.keyOffset,
        `${where} has both "${inputs[0]}" and "${inputs[1]}": give one`,
      );
    const kind = inputs[0] === 'select' ? 'select' : inputs[0] === 'transcript' ? 'simulate' : 'search';
    this.checkKeys(obj, KEYS_BY_KIND[kind], `a ${kind} ${where}`, ALL_CASE_KEYS);

    const skipNode = obj.members.get('skip')?.value;
    let skip: string | null = null;
    if (skipNode) {
      if (skipNode.kind === 'string') skip = skipNode.value;
      else if (this.bool(skipNode, 'skip')) skip = '';
    }
    const recordNode = obj.members.get('record')?.value;
    const record = recordNode ? this.bool(recordNode, 'record') : false;
    if (record && kind === 'simulate') this.fail(recordNode!, 'record applies to search and select cases only');
    const desc = obj.members.get('description')?.value;
    if (desc) this.string(desc, 'description', false);
    const catalog = this.catalogRef(obj, where) ?? suiteCatalog;
    const engine = this.engineRef(obj, suiteEngine);
    if (engine !== null && engine.spec.kind === 'module' && kind === 'simulate')
      this.fail(
        obj.members.get('engine')?.value ?? obj,
        `${where}: a module engine ranks only; a simulation replays the loading rule of eino, ai-sdk or mastra`,
      );
    if (engine !== null && kind === 'select' && !(engine.spec.kind === 'builtin' && engine.spec.id !== 'ai-sdk'))
      this.fail(
        obj.members.get('select')!.keyOffset,
        `${where}: the ${engine.name} engine has no direct selection (select: runs on eino, or mastra's load_tool)`,
      );
    if (engine !== null && kind === 'search' && obj.members.has('args') && engine.spec.kind !== 'builtin')
      this.fail(obj.members.get('args')!.keyOffset, `${where}: a module engine takes a query, not raw args`);
    const base = { index, name, location: this.at(node), offset: node.offset, skip, record, catalog, engine };

    if (kind === 'simulate') return this.simulateCase(obj, base);
    if (catalog === null) this.fail(obj, `${where} needs a catalog: add "catalog:" to the suite or to the case`);
    const expect = this.resultExpectations(obj, where, kind, record);
    if (kind === 'select') {
      const sel = obj.members.get('select')!.value;
      let names: string[];
      if (sel.kind === 'string') names = [sel.value];
      else if (sel.kind === 'array') names = sel.items.map((i) => this.string(i, 'each name of select', false));
      else this.fail(sel, `select must be a list of tool names or a "a,b" string, not ${kindName(sel)}`);
      return { ...base, kind: 'select', names, expect } satisfies SelectCase;
    }
    const queryNode = obj.members.get('query')?.value;
    const maxNode = obj.members.get('max_results')?.value;
    if (queryNode) {
      // The query is passed as written: white space and an empty query behave as in the reference.
      const query = this.string(queryNode, 'query', false);
      const maxResults = maxNode ? this.integer(maxNode, 'max_results', null) : null;
      return { ...base, kind: 'search', input: { query, maxResults }, expect } satisfies SearchCase;
    }
    if (maxNode)
      this.fail(
        obj.members.get('max_results')!.keyOffset,
        'max_results goes inside args (args are passed as they are)',
      );
    const argsNode = obj.members.get('args')!.value;
    // A string is the raw arguments text, exactly; a mapping is written out as JSON.
    const args = argsNode.kind === 'string' ? argsNode.value : JSON.stringify(toJsonValue(argsNode));
    return { ...base, kind: 'search', input: { args }, expect } satisfies SearchCase;
  }

  private resultExpectations(
    obj: ObjectNode,
    where: string,
    kind: 'search' | 'select',
    record: boolean,
  ): ResultExpectations {
    const get = (k: string): Node | undefined => obj.members.get(k)?.value;
    const out: {
      -readonly [K in keyof ResultExpectations]: ResultExpectations[K];
    } = {};
    const inc = get('includes');
    if (inc) out.includes = this.names(inc, 'includes');
    const exc = get('excludes');
    if (exc) out.excludes = this.names(exc, 'excludes');
    const exact = get('exact');
    if (exact) out.exact = this.names(exact, 'exact', false);
    const first = get('first');
    if (first) out.first = this.nameRef(first, 'first');
    const ram = get('rank_at_most');
    if (ram) {
      const m = this.object(ram, 'rank_at_most (tool: rank)');
      if (m.members.size === 0) this.fail(ram, 'rank_at_most is empty');
      out.rank_at_most = [...m.members.values()].map((mem) => ({
        tool: { name: mem.key, location: this.at(mem.keyOffset), offset: mem.keyOffset },
        rank: this.integer(mem.value, `the rank of ${mem.key}`, 1),
      }));
    }
    const none = get('none');
    if (none) out.none = this.bool(none, 'none');
    const err = get('error');
    if (err) out.error = this.string(err, 'error', false);
    const checks = (['includes', 'excludes', 'exact', 'first', 'rank_at_most', 'error'] as const).filter(
      (k) => out[k] !== undefined,
    );
    if (checks.length === 0 && out.none !== true && !record) {
      this.fail(
        obj,
        `${where} checks nothing: add ${
          kind === 'search'
            ? 'includes, excludes, exact, first, rank_at_most, none or error'
            : 'includes, excludes, exact, first, rank_at_most or none'
        } (or record: true)`,
      );
    }
    if (out.none === true) {
      const clash =
        (['includes', 'first', 'rank_at_most', 'error'] as const).find((k) => out[k] !== undefined) ??
        (out.exact && out.exact.length > 0 ? 'exact' : undefined);
      if (clash) this.fail(obj.members.get(clash)!.keyOffset, `${where}: "${clash}" contradicts "none: true"`);
    }
    if (out.error !== undefined) {
      const clash = (['includes', 'exact', 'first', 'rank_at_most'] as const).find((k) => out[k] !== undefined);
      if (clash)
        this.fail(
          obj.members.get(clash)!.keyOffset,
          `${where}: "${clash}" contradicts "error" (an error returns no result)`,
        );
    }
    if (out.includes && out.excludes) {
      const inc2 = new Set(out.includes.map((n) => n.name));
      const both = out.excludes.find((n) => inc2.has(n.name));
      if (both)
        this.fail(obj.members.get('excludes')!.keyOffset, `${where}: ${both.name} is both included and excluded`);
    }
    return out;
  }

  private listAt(node: Node, what: string): ListAt[] {
    const items = node.kind === 'array' ? node.items : [node];
    if (items.length === 0) this.fail(node, `${what} is empty`);
    return items.map((item) => {
      const obj = this.object(item, `${what} ({call, includes, excludes, exact})`);
      this.checkKeys(obj, ['call', 'includes', 'excludes', 'exact'], what);
      const callNode = obj.members.get('call')?.value;
      if (!callNode) this.fail(obj, `${what} needs "call": the model call number (1 is the first)`);
      const out: { -readonly [K in keyof ListAt]: ListAt[K] } = {
        call: this.integer(callNode, 'call', 1),
        location: this.at(item),
      };
      const inc = obj.members.get('includes')?.value;
      if (inc) out.includes = this.names(inc, 'includes');
      const exc = obj.members.get('excludes')?.value;
      if (exc) out.excludes = this.names(exc, 'excludes');
      const exact = obj.members.get('exact')?.value;
      if (exact) out.exact = this.names(exact, 'exact', false);
      if (!inc && !exc && !exact) this.fail(obj, `${what} checks nothing: add includes, excludes or exact`);
      return out;
    });
  }

  private simulateCase(
    obj: ObjectNode,
    base: Omit<SimulateCase, 'kind' | 'transcript' | 'transcriptOffset' | 'format' | 'mode' | 'static' | 'expect'>,
  ): SimulateCase {
    const get = (k: string): Node | undefined => obj.members.get(k)?.value;
    const where = `case ${quote(base.name)}`;
    const transcriptNode = get('transcript')!;
    const transcript = this.resolve(this.string(transcriptNode, 'transcript'));
    const fmt = get('format');
    const modeNode = get('mode');
    const st = get('static');
    let statics: NameRef[] = [];
    if (st) {
      // `static: a, b` (one string) or a list.
      statics =
        st.kind === 'string'
          ? st.value
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '')
              .map((name) => ({ name, location: this.at(st), offset: st.offset }))
          : this.names(st, 'static');
    }
    const visible = get('visible_at');
    const deferred = get('deferred_at');
    const nv = get('no_violations');
    const same = get('same_as_recorded');
    const expect: SimulateExpectations = {
      visible_at: visible ? this.listAt(visible, 'visible_at') : [],
      deferred_at: deferred ? this.listAt(deferred, 'deferred_at') : [],
      no_violations: nv ? this.bool(nv, 'no_violations') : false,
      same_as_recorded: same ? this.bool(same, 'same_as_recorded') : false,
    };
    if (
      expect.visible_at.length === 0 &&
      expect.deferred_at.length === 0 &&
      !expect.no_violations &&
      !expect.same_as_recorded
    ) {
      this.fail(obj, `${where} checks nothing: add visible_at, deferred_at, no_violations or same_as_recorded`);
    }
    const mode: Mode = modeNode ? this.choice(modeNode, 'mode', MODES) : 'default';
    if (expect.deferred_at.length > 0 && mode !== 'native')
      this.fail(deferred!, 'deferred_at applies to mode: native (default mode defers nothing)');
    return {
      ...base,
      kind: 'simulate',
      transcript,
      transcriptOffset: transcriptNode.offset,
      format: fmt ? this.choice<TranscriptFormat | 'auto'>(fmt, 'format', TRANSCRIPT_FORMATS) : 'auto',
      mode,
      static: statics,
      expect,
    };
  }
}
