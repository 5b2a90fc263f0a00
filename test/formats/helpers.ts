import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/io/errors.js';
import type { Node } from '../../src/io/nodes.js';

/** Absolute path of a fixture under fixtures/formats/. */
export function fixture(rel: string): string {
  return fileURLToPath(new URL(`../../fixtures/formats/${rel}`, import.meta.url));
}

/** Runs `fn`, expecting an InputError; returns it. */
export function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError, got a result');
}

/** A scratch directory for generated inputs (binary, huge or hostile files are made here, not committed). */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'toolsearch-formats-'));

  write(name: string, content: string | Uint8Array): string {
    const p = join(this.dir, name);
    writeFileSync(p, content);
    return p;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What `fn` returns, or the InputError it throws (message, location, excerpt). */
export function outcome(fn: () => unknown): unknown {
  try {
    return { value: fn() };
  } catch (err) {
    const e = err as { name?: string; message?: string; location?: unknown; excerpt?: unknown };
    if (e.name !== 'InputError') throw err;
    return { error: { message: e.message, location: e.location, excerpt: e.excerpt } };
  }
}

/** A node tree as plain data: kinds, offsets, keys and their offsets, values and number literals. */
export function tree(node: Node): unknown {
  switch (node.kind) {
    case 'null':
      return ['null', node.offset];
    case 'bool':
    case 'string':
      return [node.kind, node.offset, node.value];
    case 'number':
      return ['number', node.offset, node.value, node.raw];
    case 'array':
      return ['array', node.offset, node.items.map(tree)];
    case 'object':
      return ['object', node.offset, [...node.members.values()].map((m) => [m.key, m.keyOffset, tree(m.value)])];
  }
}

/** Throws unless `a` and `b` are the same data: prototypes, own keys in order, numbers by `Object.is`. */
export function expectSame(a: unknown, b: unknown, path = '$'): void {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') {
    if (!Object.is(a, b)) throw new Error(`${path}: ${String(a)} ≠ ${String(b)}`);
    return;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) throw new Error(`${path}: different prototypes`);
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.join('\0') !== kb.join('\0'))
    throw new Error(`${path}: keys ${ka.map(String).join(',')} ≠ ${kb.map(String).join(',')}`);
  for (const k of ka)
    expectSame((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k], `${path}.${String(k)}`);
}
