/** The import graph of src/: every module and what it imports (relative imports only), for the architecture tests. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

export interface Edge {
  readonly to: string;
  /** `import type` / `export type`: erased by the compiler, no module is loaded. */
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** `./x.js` from `from` → the source file it names (src-relative), or null when it is not under src/. */
function resolveSource(from: string, spec: string): string | null {
  const abs = path.resolve(path.dirname(from), spec);
  for (const candidate of [abs, abs.replace(/\.js$/, '.ts'), abs.replace(/\.js$/, '.tsx'), abs.replace(/\.mjs$/, '.mjs')]) {
    try {
      readFileSync(candidate);
      return path.relative(SRC, candidate);
    } catch {
      // next
    }
  }
  return null;
}

/** Comments removed (a commented-out import is no import), strings kept. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Module (src-relative path) → its relative imports. */
export function importGraph(): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const file of sources(SRC)) {
    const text = stripComments(readFileSync(file, 'utf8'));
    const edges: Edge[] = [];
    const statics = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
    for (const m of text.matchAll(statics)) {
      const spec = m[4] ?? m[5]!;
      if (!spec.startsWith('.')) continue;
      const to = resolveSource(file, spec);
      if (to === null) throw new Error(`${path.relative(SRC, file)}: cannot resolve ${spec}`);
      // `import { type A, type B } from` is type-only too.
      const names = m[3] ?? '';
      const allTypes = /^\{[^}]*\}$/.test(names) && names.slice(1, -1).split(',').every((n) => n.trim() === '' || /^type\s/.test(n.trim()));
      edges.push({ to, typeOnly: m[2] !== undefined || allTypes, dynamic: false });
    }
    for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const to = resolveSource(file, spec);
      if (to === null) throw new Error(`${path.relative(SRC, file)}: cannot resolve ${spec}`);
      // `typeof import('./x.js')` in a type position loads nothing.
      const before = text.slice(Math.max(0, m.index - 8), m.index);
      edges.push({ to, typeOnly: /typeof\s*$/.test(before) || /:\s*$/.test(before), dynamic: true });
    }
    graph.set(path.relative(SRC, file), edges);
  }
  return graph;
}

/** The cycles of `graph` (strongly connected components of more than one module, or a module importing itself), each sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
