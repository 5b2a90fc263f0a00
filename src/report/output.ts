/**
 * Report files a run was asked to write (`--html`): through the shared
 * atomic writer, and never over one of the run's own inputs (a transcript
 * or catalog passed as the output by mistake would be lost).
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';

function identity(file: string): string | null {
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** Writes `text` to `file` atomically; refuses when `file` is one of `inputs` (same path or same file). */
export function writeReportFile(file: string, text: string, inputs: readonly string[]): void {
  const target = identity(file);
  const path = real(file);
  for (const input of inputs) {
    if (input === '-' || /^mcp:/.test(input)) continue;
    if (real(input) === path || (target !== null && identity(input) === target)) {
      throw new InputError(`refusing to write the report over an input of this run (${input})`, { file, line: 0, column: 0 });
    }
  }
  writeFileAtomic(file, text);
}
