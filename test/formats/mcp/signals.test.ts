// Our process stopped by SIGINT or SIGTERM still ends the server it started
// (and the server's process group). The client runs in a separate Node
// process, bundled from the sources with esbuild, so the test can signal it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, nodeEval, q, readPid, waitGone } from './helpers.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-mcp-signals-'));
// Inside the repository so the bundle's bare imports resolve from node_modules.
const cacheDir = join(root, 'node_modules', '.cache', 'toolsearch-tests');
const driver = join(cacheDir, `signal-driver-${process.pid}.mjs`);

beforeAll(async () => {
  mkdirSync(cacheDir, { recursive: true });
  await build({
    stdin: {
      contents: `
        import { listMcpTools } from './src/formats/mcp/list-tools.ts';
        process.stdout.write('started\\n');
        listMcpTools({ command: process.argv[2], timeoutMs: 60000 }).then(
          () => process.exit(0),
          (e) => { process.stderr.write(e.message + '\\n'); process.exit(5); },
        );`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: driver,
    logLevel: 'silent',
  });
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(driver, { force: true });
});

describe('our process stopped by a signal', () => {
  it.concurrent.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: ends the server and its process group, then ends the way the signal would',
    async (signal) => {
      const pidFile = join(tmp, `${signal}.pid`);
      const server = nodeEval(
        "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)",
        [pidFile],
      );
      const child = spawn(process.execPath, [driver, `sh -c ${q(`${server} & wait`)}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      try {
        const serverPid = await readPid(pidFile, 15_000);
        expect(alive(serverPid)).toBe(true);
        child.kill(signal);
        expect(await exited).toEqual({ code: null, signal });
        expect(await waitGone(serverPid)).toBe(true);
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});
