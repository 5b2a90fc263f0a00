/**
 * The error kinds of the edges (loaders, engines, CLI). The CLI maps them to
 * exit codes in one place: InputError and UsageError → 2, AssertionFailure → 1.
 */
import { escapeText } from './escape.js';

/** A position in an input file (1-based line and column). */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Bad input: a file that cannot be read or parsed, or content of the wrong shape. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    /** Where the problem is, when a position exists. */
    readonly location?: SourceLocation,
    /** The offending source line with a caret under the column, when known. */
    readonly excerpt?: string,
  ) {
    super(message);
  }

  /** One line: `file:line:column: message` (or `file: message`, or the message alone). */
  get headline(): string {
    const l = this.location;
    if (!l) return this.message;
    return l.line > 0 ? `${l.file}:${l.line}:${l.column}: ${this.message}` : `${l.file}: ${this.message}`;
  }
}

/** Bad command-line usage: unknown flag values, conflicting flags. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** An expectation or check failed (exit 1); `details` is the human-readable diff. */
export class AssertionFailure extends Error {
  override readonly name = 'AssertionFailure';
  constructor(
    message: string,
    readonly details: string = '',
  ) {
    super(message);
  }
}

/** Builds the excerpt for a location: the line of `text` and a caret under `column`. */
export function caretExcerpt(text: string, line: number, column: number): string {
  const lines = text.split(/\r\n|\r|\n/);
  const src = lines[line - 1] ?? '';
  return `${src}\n${' '.repeat(Math.max(0, column - 1))}^`;
}

/**
 * The one way a message quotes a value from the input or the command line
 * (a case name, a key, a tool name): in double quotes, with line breaks,
 * tabs and every other character a terminal must not see raw escaped
 * (`"x\nerror: forged"`), so a value can never start a line of its own or
 * pass for another message. Messages are one line; the CLI prints them
 * escaped again (see cli/exit.ts), this keeps JSON and JUnit copies honest too.
 */
export function quote(value: string): string {
  return `"${escapeText(value)}"`;
}
