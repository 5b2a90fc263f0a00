/**
 * The loaders for text or values already in memory (a test suite asserting
 * on a replay from code): a recording or a catalog from its text, or from a
 * parsed JSON value. Errors are located in `name` as for files.
 */
import { readCatalogDocument, type CatalogOptions } from './catalog.js';
import { parseText } from '../io/parse.js';
import { readRecording, type RecordingOptions } from './recordings/registry.js';
import type { Catalog, Transcript } from './types.js';

function textOf(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input, null, 1);
}

/**
 * Reads a recording from its text (JSON, JSONL or YAML) or from a parsed
 * value (an array of messages, a request body, ...), in any recording format.
 */
export function loadRecordingText(
  input: unknown,
  options: RecordingOptions & { readonly name?: string } = {},
): Transcript {
  const name = options.name ?? (typeof input === 'string' ? '<text>' : '<value>.json');
  const parse = { yamlBinary: true, ...(options.limits ? { limits: options.limits } : {}) };
  return readRecording(parseText(name, textOf(input), parse), options);
}

/** Reads a catalog from its text or a parsed value, in any catalog format. */
export function loadCatalogText(input: unknown, options: CatalogOptions & { readonly name?: string } = {}): Catalog {
  const name = options.name ?? (typeof input === 'string' ? '<text>' : '<value>.json');
  const doc = parseText(name, textOf(input), options.limits ? { limits: options.limits } : {});
  const read = readCatalogDocument(doc, options);
  return {
    tools: read.tools,
    sources: [{ file: name, format: read.format }],
    warnings: read.warnings,
    shapeWarnings: read.shapeWarnings,
  };
}
