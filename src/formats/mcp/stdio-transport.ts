/**
 * An MCP stdio client transport that owns its child process.
 *
 * The SDK's `StdioClientTransport` drops lines it cannot parse and reports a
 * closed connection without the exit status, so a user would only see a
 * timeout or "Connection closed". This transport keeps what a good error
 * message needs: whether the command exists, the exit code or signal, the
 * first line on stdout that is not JSON-RPC, and the tail of stderr. It
 * also starts the server in its own process group and ends the whole group.
 *
 * It implements the SDK's `Transport` interface; the message validator is
 * passed in so this module does not load the SDK itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { endGroup, killTree, OWN_PROCESS_GROUP, trackChild, untrackChild } from './children.js';

/** Why the server process is of no use. */
export type ChildFailure =
  | { readonly kind: 'not-found'; readonly program: string }
  | { readonly kind: 'spawn'; readonly program: string; readonly message: string }
  | { readonly kind: 'exit'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'not-mcp'; readonly line: string }
  /** A stdout line longer than the largest MCP message accepted. */
  | { readonly kind: 'too-large'; readonly maxBytes: number }
  /** The program wrote back a message we had sent (`cat`, a shell reading stdin, …). */
  | { readonly kind: 'echo' };

/** Rejection value of {@link ChildProcessTransport.failure}. */
export class ChildFailureError extends Error {
  override readonly name = 'ChildFailureError';
  constructor(readonly failure: ChildFailure) {
    super(failure.kind);
  }
}

export interface ChildProcessTransportOptions {
  readonly program: string;
  readonly args: readonly string[];
  /** Environment of the server; defaults to ours (a command line is run as the user would run it). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /**
   * Validates one decoded line as a JSON-RPC message (the SDK's `JSONRPCMessageSchema.parse`); throws when it is not
   * one.
   */
  readonly validate: (value: unknown) => JSONRPCMessage;
  /** Bytes of stderr kept for error messages. */
  readonly stderrLimit?: number;
  /** Longest stdout line accepted (default {@link MAX_LINE_BYTES}). */
  readonly maxLineBytes?: number;
}

/**
 * Largest stdout line accepted (as the SDK's stdio transport); also the largest HTTP answer or event (list-tools.ts).
 */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How long `close()` waits for the server to leave after its stdin closes, and again after SIGTERM. */
const GRACE_MS = 1000;
/** Messages we sent that are remembered to recognize a program that echoes its input. */
const SENT_REMEMBERED = 32;

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** Rejects when the server cannot serve: not started, exited, or not speaking JSON-RPC. Never resolves. */
  readonly failure: Promise<never>;
  private rejectFailure!: (e: ChildFailureError) => void;
  private failed: ChildFailure | null = null;

  private child: ChildProcess | null = null;
  private exited: Promise<void> | null = null;
  /** Set when the server has exited: the end of what was left of its process group. */
  private groupEnded: Promise<void> = Promise.resolve();
  private closing = false;
  private closed: Promise<void> | null = null;
  private stdoutBuf: Buffer = Buffer.alloc(0);
  private stderrBuf = '';
  private stderrEnded: Promise<void> = Promise.resolve();
  private readonly sent: string[] = [];
  private sawMessage = false;
  /** Lines on stdout that were not JSON-RPC after the server had spoken MCP (ignored, counted for a warning). */
  ignoredLines = 0;

  constructor(private readonly options: ChildProcessTransportOptions) {
    this.failure = new Promise<never>((_, reject) => {
      this.rejectFailure = reject;
    });
    this.failure.catch(() => undefined); // observed by whoever races it; never unhandled
  }

  /** The recorded failure, if any. */
  get failureReason(): ChildFailure | null {
    return this.failed;
  }

  /** Process id of the server, while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The last bytes the server wrote on stderr. */
  get stderr(): string {
    return this.stderrBuf;
  }

  /**
   * Waits until the server's stderr is closed, at most `ms` milliseconds:
   * what a failing server writes on stderr often arrives just after what
   * made it fail (a line on stdout), and belongs in the error message.
   */
  async settleStderr(ms: number): Promise<void> {
    if (!this.child) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.stderrEnded, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  private fail(f: ChildFailure): void {
    if (this.failed !== null) return;
    this.failed = f;
    this.rejectFailure(new ChildFailureError(f));
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ChildProcessTransport already started');
    const { program, args, env, cwd } = this.options;
    return new Promise<void>((resolve, reject) => {
      const child = spawn(program, [...args], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: env ?? process.env,
        cwd,
        detached: OWN_PROCESS_GROUP,
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      trackChild(child);
      this.exited = new Promise<void>((done) => {
        child.once('close', (code, signal) => {
          untrackChild(child);
          if (!this.closing) this.fail({ kind: 'exit', code, signal });
          // Grandchildren that outlive the server's main process end with it: SIGTERM now,
          // SIGKILL after a grace period to those that stay; close() waits for that.
          this.groupEnded = endGroup(child);
          done();
          this.onclose?.();
        });
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        untrackChild(child);
        const f: ChildFailure =
          err.code === 'ENOENT' ? { kind: 'not-found', program } : { kind: 'spawn', program, message: err.message };
        this.fail(f);
        reject(new ChildFailureError(f));
      });
      child.once('spawn', () => resolve());
      child.stdin!.on('error', () => undefined); // EPIPE when the server is gone: reported by 'close'
      child.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
      this.stderrEnded = new Promise<void>((done) => {
        child.stderr!.once('close', () => done());
        child.stderr!.once('end', () => done());
        child.stderr!.once('error', () => done());
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (s: string) => {
        const limit = this.options.stderrLimit ?? 16 * 1024;
        this.stderrBuf = (this.stderrBuf + s).slice(-limit);
      });
    });
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutBuf = this.stdoutBuf.length === 0 ? chunk : Buffer.concat([this.stdoutBuf, chunk]);
    const maxBytes = this.options.maxLineBytes ?? MAX_LINE_BYTES;
    for (;;) {
      const nl = this.stdoutBuf.indexOf(0x0a);
      if (nl < 0) break;
      // A whole line over the bound is refused as an unfinished one is (below), whichever way the chunks fell.
      if (nl > maxBytes) {
        this.stdoutBuf = Buffer.alloc(0);
        this.fail({ kind: 'too-large', maxBytes });
        return;
      }
      const line = this.stdoutBuf.toString('utf8', 0, nl).replace(/\r$/, '');
      this.stdoutBuf = this.stdoutBuf.subarray(nl + 1);
      this.onLine(line);
    }
    if (this.stdoutBuf.length > maxBytes) {
      this.stdoutBuf = Buffer.alloc(0);
      this.fail({ kind: 'too-large', maxBytes });
    }
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    // A program that copies its input to its output (`cat`) would otherwise
    // look like a client calling our `initialize`, which the SDK answers
    // with "Method not found", which it echoes back in turn.
    if (this.sent.includes(line)) {
      this.fail({ kind: 'echo' });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = this.options.validate(JSON.parse(line));
    } catch (err) {
      // Before the server has said anything valid, garbage means it is not an
      // MCP server (or logs to stdout, which MCP forbids): fail now rather
      // than wait for the timeout. Afterwards, tolerate and count it.
      if (!this.sawMessage) this.fail({ kind: 'not-mcp', line });
      else this.ignoredLines++;
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.sawMessage = true;
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'));
    const line = JSON.stringify(message);
    this.sent.push(line);
    if (this.sent.length > SENT_REMEMBERED) this.sent.shift();
    return new Promise<void>((resolve) => {
      if (stdin.write(`${line}\n`)) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /**
   * Ends the server as the MCP specification asks: close its stdin, wait,
   * SIGTERM, wait, SIGKILL (each to the whole process group); then, once it
   * has exited, the rest of its group: SIGTERM, a grace period, SIGKILL.
   */
  close(): Promise<void> {
    // Every caller waits for the same end: the SDK's client starts closing
    // on its own when initialize fails, and we must still wait for the exit.
    if (!this.child) return Promise.resolve();
    this.closed ??= this.end(this.child);
    return this.closed;
  }

  private async end(child: ChildProcess): Promise<void> {
    this.closing = true;
    const exited = this.exited!;
    const waitExit = (ms: number): Promise<boolean> =>
      new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), ms);
        void exited.then(() => {
          clearTimeout(t);
          resolve(true);
        });
      });
    if (child.pid === undefined) return; // never started (spawn failed)
    if (child.exitCode !== null || child.signalCode !== null) {
      await waitExit(GRACE_MS);
    } else {
      try {
        child.stdin?.end();
      } catch {
        // ignore: the pipe may already be closed
      }
      if (!(await waitExit(GRACE_MS))) {
        killTree(child, 'SIGTERM');
        if (!(await waitExit(GRACE_MS))) {
          killTree(child, 'SIGKILL');
          await waitExit(GRACE_MS);
        }
      }
    }
    // The server is gone; what it started in its group gets SIGTERM, then SIGKILL.
    await this.groupEnded;
  }
}
