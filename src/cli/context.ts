/**
 * What a command needs from the outside world: the output streams (with
 * their color and width), stdin and the environment. Commands write through
 * the context only, never to `process` directly, so output handling (colors,
 * EPIPE, escaping of warnings) lives in one place.
 */
import { colorEnabled, createStyle, type Style } from '../render/color.js';
import { clipLines, messageLine } from '../io/escape.js';
import type { CatalogCache } from './catalog-cache.js';
import type { Limits } from '../io/read.js';
import { safeJson } from '../io/json-out.js';
import { createProgress, type Progress } from './progress.js';
import type { OutStream } from './out-stream.js';

export type { OutStream } from './out-stream.js';

export interface CliIo {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Use the loaded-catalog cache of `env` (src/cli/catalog-cache.ts) although these streams are
   * given: a host running main() in process (the fuzzer's cache-tampering mode). Without streams
   * (a process of its own) the cache is used anyway, unless turned off.
   */
  readonly fileCache?: boolean;
}

/** Width used when stdout is not a terminal (and `COLUMNS` is not set). */
export const DEFAULT_WIDTH = 100;

/** Lines of human output joined into one write (see {@link CliContext.lines}). */
const LINES_PER_WRITE = 4096;

export class CliContext {
  /** Set from the global `--no-color` flag before a command runs. */
  noColorFlag = false;
  /** Set from the global `--verbose` flag: notes on stderr. */
  verbose = false;
  /** Input limits for every load of this run (from `TOOLSEARCH_MAX_*`; unset fields are the defaults). */
  limits: Partial<Limits> = {};
  /** The loaded-catalog cache of this run, or null (a process of its own has one unless turned off). */
  catalogCache: CatalogCache | null = null;
  private outStyleCache: Style | null = null;
  private errStyleCache: Style | null = null;

  constructor(readonly io: CliIo) {}

  /** Styles for stdout (computed on first use, after the flags are parsed). */
  get outStyle(): Style {
    this.outStyleCache ??= createStyle(
      colorEnabled({ noColorFlag: this.noColorFlag, env: this.io.env, isTTY: this.io.stdout.isTTY === true }),
    );
    return this.outStyleCache;
  }

  /** Styles for stderr. */
  get errStyle(): Style {
    this.errStyleCache ??= createStyle(
      colorEnabled({ noColorFlag: this.noColorFlag, env: this.io.env, isTTY: this.io.stderr.isTTY === true }),
    );
    return this.errStyleCache;
  }

  /**
   * Width to fit human output to: `COLUMNS` when it is a positive integer,
   * else the terminal's width, else {@link DEFAULT_WIDTH}.
   */
  get width(): number {
    const env = this.io.env.COLUMNS;
    if (env !== undefined && /^[1-9][0-9]{0,4}$/.test(env)) return Math.max(20, Number(env));
    const cols = this.io.stdout.isTTY ? this.io.stdout.columns : undefined;
    return cols !== undefined && cols > 0 ? Math.max(20, cols) : DEFAULT_WIDTH;
  }

  /** Progress lines this run created: erased before anything else is written (see {@link clearProgress}). */
  private readonly progressLines: Progress[] = [];

  /**
   * Erases a progress line still drawn, so what is written next starts on a clean line: an error
   * thrown in the middle of long work (a server that fails while "starting 3 MCP servers…" shows)
   * is not glued to the end of the progress text.
   */
  private clearProgress(): void {
    for (const p of this.progressLines) p.done();
  }

  /** Writes text to stdout as it is. */
  out(text: string): void {
    this.clearProgress();
    this.io.stdout.write(text);
  }

  /**
   * Writes lines of human output to stdout, each ended by a newline (a hostile very long line is cut, see `clipLines`),
   * a few thousand lines per write, taken from `lines` as they come: a report of a million lines (lint on a
   * large catalog, rendered by a generator) is never one string nor one array.
   */
  lines(lines: Iterable<string>): void {
    this.clearProgress();
    let batch: string[] = [];
    for (const line of lines) {
      batch.push(line);
      if (batch.length === LINES_PER_WRITE) {
        this.io.stdout.write(`${clipLines(batch.join('\n'))}\n`);
        batch = [];
      }
    }
    if (batch.length > 0) this.io.stdout.write(`${clipLines(batch.join('\n'))}\n`);
  }

  /**
   * Writes a JSON document to stdout (2-space indentation). Characters a
   * terminal acts on that JSON leaves raw (C1, DEL, bidi controls) are
   * written as `\uXXXX` escapes: the text decodes unchanged.
   */
  json(value: unknown): void {
    this.clearProgress();
    this.io.stdout.write(`${safeJson(value, undefined, 2)}\n`);
  }

  /** Writes text to stderr as it is. */
  err(text: string): void {
    this.clearProgress();
    this.io.stderr.write(text);
  }

  /** A progress line on stderr for long work: drawn only when stderr is a terminal (see progress.ts). */
  progress(): Progress {
    const p = createProgress(this.io.stderr);
    this.progressLines.push(p);
    return p;
  }

  /**
   * `warning: message` on stderr, one line: the message may quote input text (a config's keys, a server's command
   * line), so it goes through {@link messageLine} like every error (a line break in it is shown as `\n`).
   */
  warn(message: string): void {
    this.clearProgress();
    const s = this.errStyle;
    this.io.stderr.write(`${s.yellow('warning:')} ${messageLine(message)}\n`);
  }
}
