import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';

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
