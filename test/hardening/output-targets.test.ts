/**
 * Issue 14, finding 3: `--output` onto what is not a regular file
 * (src/io/atomic.ts). A character device (made with mknod: root, as in
 * CI) or a FIFO is written in place and stays what it was; a symbolic link
 * to one is kept; a socket is refused; `-o -` is stdout. On c63dd70 the
 * rename replaced each with a regular file (and `-o -` wrote a file named
 * `-`). Through the built CLI (`npm run build` first).
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, shell, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-output-targets-');
afterAll(() => tmp.cleanup());
let n = 0;
const SUITE = join(ROOT, 'fixtures/suites/select.json');
const fresh = (): string => {
  const d = join(tmp.dir, `d${n++}`);
  mkdirSync(d);
  return d;
};

describe.concurrent('finding 3: outputs that are not regular files', () => {
  it.runIf(process.getuid?.() === 0)(
    'a character device (mknod c 1 3, a null device) is written in place and stays a device; so is a link to it',
    async () => {
      const d = fresh();
      const dev = join(d, 'null');
      const mk = await shell(`mknod ${dev} c 1 3`);
      expect(mk.code, mk.stderr).toBe(0);
      const r = await spawnCli(['test', SUITE, '-r', 'junit', '-o', dev]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(statSync(dev).isCharacterDevice()).toBe(true);
      const link = join(d, 'link');
      symlinkSync(dev, link);
      const r2 = await spawnCli(['test', SUITE, '-r', 'tap', '--output', link]);
      expect(r2.code, r2.stderr).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(statSync(dev).isCharacterDevice()).toBe(true);
      expect(readFileSync(link, 'utf8')).toBe(''); // still the null device
    },
  );

  it('a FIFO is written in place: its reader gets the report, and it stays a FIFO', async () => {
    const d = fresh();
    const fifo = join(d, 'fifo');
    expect((await shell(`mkfifo ${fifo}`)).code).toBe(0);
    const cat = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    cat.stdout.on('data', (b: Buffer) => chunks.push(b));
    const ended = new Promise<void>((resolve) => cat.on('close', () => resolve()));
    const r = await spawnCli(['test', SUITE, '-r', 'tap', '-o', fifo]);
    // A reader the run never wrote to (the old code renamed a file over the FIFO) must not outlive the test.
    const timer = setTimeout(() => cat.kill('SIGKILL'), 5000);
    await ended;
    clearTimeout(timer);
    expect(r.code, r.stderr).toBe(0);
    expect(Buffer.concat(chunks).toString('utf8')).toMatch(/^TAP version 13\n1\.\.\d+\n/);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a socket is refused (exit 2, one line), and stays a socket', async () => {
    const d = fresh();
    const sock = join(d, 's.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const r = await spawnCli(['test', SUITE, '-r', 'junit', '-o', sock]);
      expect(r).toEqual({
        code: 2,
        signal: null,
        stdout: expect.any(String),
        stderr: `error: ${sock}: cannot write file: it is a socket\n`,
      });
      expect(statSync(sock).isSocket()).toBe(true);
    } finally {
      server.close();
    }
  });

  it('-o - writes the report to stdout (the report only) and no file named "-"', async () => {
    const d = fresh();
    const viaStdout = await spawnCli(['test', SUITE, '-r', 'tap', '-o', '-'], { cwd: d });
    const plain = await spawnCli(['test', SUITE, '-r', 'tap'], { cwd: d });
    expect(viaStdout.code).toBe(0);
    expect(viaStdout.stderr).toBe('');
    expect(viaStdout.stdout.replace(/# duration_ms [0-9.]+/g, '')).toBe(
      plain.stdout.replace(/# duration_ms [0-9.]+/g, ''),
    );
    expect(viaStdout.stdout).toMatch(/^TAP version 13\n/);
    expect(existsSync(join(d, '-'))).toBe(false);
  });

  it('a symbolic link to a regular file is kept: the file it names gets the report', async () => {
    const d = fresh();
    const real = join(d, 'real.xml');
    writeFileSync(real, 'old');
    const link = join(d, 'report.xml');
    symlinkSync(real, link);
    // ('old' is no report of ours: --force, issue 27)
    const r = await spawnCli(['test', SUITE, '-r', 'junit', '-o', link, '--force']);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toMatch(/^<\?xml /);
  });

  it('import -o - writes the catalog to stdout', async () => {
    const d = fresh();
    const { serverCommand } = await import('../formats/mcp/helpers.js');
    const r = await spawnCli(['import', '--mcp', serverCommand(['--tools', '1']), '--json', '-o', '-'], { cwd: d });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tools).toHaveLength(1);
    expect(existsSync(join(d, '-'))).toBe(false);
  });
});
