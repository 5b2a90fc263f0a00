/**
 * Reading a labeled query set: JSON lines `{"query": "...", "relevant":
 * ["tool", ...], "request"?: "..."}`. Other keys are allowed and ignored
 * (labeled sets often carry notes or categories). Every problem is an
 * `InputError` at `file:line:column`; relevant tools must be dynamic tools
 * of the catalog (a typo would silently lower every score).
 */
import { errorAt, kindName, type Node, type ParsedDocument } from '../../io/nodes.js';
import { parseFile } from '../../io/parse.js';
import type { Limits } from '../../io/read.js';
import type { LabeledQuery } from './types.js';
import { quote } from '../../io/errors.js';

/** A labeled query with the positions of its relevant names (for validation against a catalog). */
interface ParsedQuery extends LabeledQuery {
  readonly relevantNodes: readonly Node[];
}

/** A parsed query file. */
export interface QuerySet {
  readonly file: string;
  readonly queries: readonly LabeledQuery[];
  /**
   * Checks every relevant name against the catalog: an `InputError` at the
   * first that is not a dynamic tool (`statics` names the catalog's static
   * tools, which are never searched).
   */
  validate(dynamic: ReadonlySet<string>, statics: ReadonlySet<string>): void;
}

function readQuery(doc: ParsedDocument, node: Node): ParsedQuery {
  if (node.kind !== 'object')
    throw errorAt(doc, node, `a labeled query must be an object {"query", "relevant"}, not ${kindName(node)}`);
  const q = node.members.get('query')?.value;
  if (!q) throw errorAt(doc, node, 'a labeled query needs "query": the tool_search query text');
  if (q.kind !== 'string') throw errorAt(doc, q, `"query" must be a string, not ${kindName(q)}`);
  if (q.value.trim() === '') throw errorAt(doc, q, '"query" is empty');
  const rel = node.members.get('relevant')?.value;
  if (!rel) throw errorAt(doc, node, 'a labeled query needs "relevant": the tools that answer it');
  if (rel.kind !== 'array') throw errorAt(doc, rel, `"relevant" must be a list of tool names, not ${kindName(rel)}`);
  if (rel.items.length === 0) throw errorAt(doc, rel, '"relevant" is empty: name at least one tool');
  for (const item of rel.items) {
    if (item.kind !== 'string')
      throw errorAt(doc, item, `each relevant tool must be a name (a string), not ${kindName(item)}`);
  }
  const req = node.members.get('request')?.value;
  if (req && req.kind !== 'string' && req.kind !== 'null')
    throw errorAt(doc, req, `"request" must be a string, not ${kindName(req)}`);
  return {
    line: doc.lines.position(node.offset).line,
    query: q.value,
    relevant: [...new Set(rel.items.map((i) => (i.kind === 'string' ? i.value : '')))],
    request: req && req.kind === 'string' ? req.value : null,
    relevantNodes: rel.items,
  };
}

/** Reads a JSONL file of labeled queries (blank lines are skipped). */
export function loadQuerySet(file: string, limits?: Partial<Limits>): QuerySet {
  const doc = parseFile(file, { syntax: 'jsonl', ...(limits ? { limits } : {}) });
  const root = doc.root;
  const items = root.kind === 'array' ? root.items : [root];
  const parsed = items.map((n) => readQuery(doc, n));
  return {
    file,
    queries: parsed.map(({ relevantNodes: _, ...q }) => q),
    validate(dynamic, statics) {
      for (const q of parsed) {
        for (const n of q.relevantNodes) {
          const name = n.kind === 'string' ? n.value : '';
          if (dynamic.has(name)) continue;
          const why = statics.has(name) ? 'is a static tool (never searched)' : 'is not a tool of the catalog';
          throw errorAt(doc, n, `relevant tool ${quote(name)} ${why}`);
        }
      }
    },
  };
}
