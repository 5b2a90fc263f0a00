/**
 * The tools a recording says were sent with one model call: names from a
 * request's `tools` (OpenAI `{type: "function", function: {name}}` or flat
 * `{type: "function", name}`, Anthropic `{name, input_schema}`, OTel
 * `gen_ai.tool.definitions` `{type, name}`), split by `defer_loading`.
 * Provider tools without a name of their own (OpenAI's `{type:
 * "tool_search"}`, Anthropic's typed server tools) are the provider's
 * search, not tools of the catalog, and are left out. The functions of an
 * OpenAI `namespace` are listed as `<namespace>.<name>`.
 */
import { toWellFormed } from '../../core/text.js';
import { field, type ArrayNode, type Node } from '../../io/nodes.js';
import type { SentTools } from '../types.js';
import { qualifiedToolName } from '../tools.js';

const SERVER_TYPES = new RegExp(
  String.raw`^(tool_search|tool_search_tool_(regex|bm25)_\d+|web_search.*|code_execution.*|bash_.*|text_editor_.*|` +
    'computer_.*|web_fetch.*|memory_.*|mcp)$',
);

export function sentToolsOf(list: ArrayNode | { readonly items: readonly Node[] }): SentTools {
  const visible: string[] = [];
  const deferred: string[] = [];
  const isTrue = (n: Node | undefined): boolean => n?.kind === 'bool' && n.value;
  const visit = (items: readonly Node[], namespace: string, namespaceDeferred: boolean): void => {
    for (const t of items) {
      if (t.kind !== 'object') continue;
      const type = field(t, 'type');
      if (type?.kind === 'string' && type.value === 'namespace') {
        // OpenAI: the functions a namespace groups, named `<namespace>.<name>` as calls name them.
        const ns = field(t, 'name');
        const inner = field(t, 'tools');
        if (inner?.kind === 'array')
          visit(inner.items, ns?.kind === 'string' ? toWellFormed(ns.value) : '', isTrue(field(t, 'defer_loading')));
        continue;
      }
      if (type?.kind === 'string' && SERVER_TYPES.test(type.value)) continue;
      const fn = field(t, 'function');
      const name = fn?.kind === 'object' ? field(fn, 'name') : field(t, 'name');
      if (name?.kind !== 'string') continue;
      const defer = field(t, 'defer_loading') ?? (fn?.kind === 'object' ? field(fn, 'defer_loading') : undefined);
      (isTrue(defer) || namespaceDeferred ? deferred : visible).push(
        qualifiedToolName(namespace, toWellFormed(name.value)),
      );
    }
  };
  visit(list.items, '', false);
  return { visible, deferred };
}
