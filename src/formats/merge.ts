/**
 * Catalog files merged into one catalog, in order: a name defined twice is an `InputError` naming both
 * places. Apart from catalog.ts, which reads the files, so that merging needs no parser (the CLI merges
 * what its catalog cache holds: src/cli/catalog-cache.ts).
 */
import { InputError } from '../io/errors.js';
import { errorAt, formatLocation } from '../io/nodes.js';
import { toolOrigins } from './tools.js';
import type { Catalog, CatalogFileResult, CatalogTool } from './types.js';

/** The message for a name defined twice (located at the second definition). */
export function duplicateToolMessage(name: string, first: CatalogTool, second: CatalogTool): string {
  return (
    `duplicate tool name ${JSON.stringify(name)}: first defined ` +
    `at ${formatLocation(first.source)}, again at ${formatLocation(second.source)}`
  );
}

/** Merges tool lists in order; a name defined twice is an `InputError` naming both places. */
export function mergeTools(lists: ReadonlyArray<readonly CatalogTool[]>): CatalogTool[] {
  const byName = new Map<string, CatalogTool>();
  const out: CatalogTool[] = [];
  for (const list of lists) {
    for (const t of list) {
      const first = byName.get(t.name);
      if (first) {
        const message = duplicateToolMessage(t.name, first, t);
        const origin = toolOrigins.get(t);
        throw origin ? errorAt(origin.doc, origin.node, message) : new InputError(message, t.source);
      }
      byName.set(t.name, t);
      out.push(t);
    }
  }
  return out;
}

/** Catalog files as loaded, merged in order into one catalog: a name defined twice is an `InputError`. */
export function mergeCatalogFiles(
  files: ReadonlyArray<{ readonly file: string; readonly result: CatalogFileResult }>,
): Catalog {
  return {
    tools: mergeTools(files.map((f) => f.result.tools)),
    sources: files.map((f) => ({ file: f.file, format: f.result.format })),
    warnings: files.flatMap((f) => f.result.warnings),
    shapeWarnings: files.flatMap((f) => f.result.shapeWarnings ?? []),
  };
}
