import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestServer } from './fixtures/test-server.mjs';

export const TEST_SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));

/** Quotes a word for our command-line splitter. */
export function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `node <test server> args…` as a command line. */
export function serverCommand(args: readonly string[] = []): string {
  return [process.execPath, TEST_SERVER, ...args].map(q).join(' ');
}

/** `node -e <code> args…` as a command line. */
export function nodeEval(code: string, args: readonly string[] = []): string {
  return [process.execPath, '-e', code, ...args].map(q).join(' ');
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded) until a file exists and returns the pid written in it. */
export async function readPid(file: string, timeoutMs = 5000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8').trim();
      if (text !== '') return Number(text);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no pid in ${file}`);
}

/** Waits (bounded) until a process is gone. */
export async function waitGone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

/** The test server behind Streamable HTTP (stateful: one session) on 127.0.0.1, random port. */
export async function startHttpServer(options: { name?: string; pageSize?: number } = {}): Promise<{
  url: string;
  close: () => Promise<void>;
  sessionsEnded: () => number;
}> {
  const mcp = createTestServer(options);
  let ended = 0;
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessionclosed: () => void ended++ });
  await mcp.connect(transport);
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      transport.handleRequest(req, res, body).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    sessionsEnded: () => ended,
    close: async () => {
      await mcp.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
