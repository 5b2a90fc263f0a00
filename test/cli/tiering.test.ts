/**
 * src/cli/tiering.ts: Turbofan put off for a short run on V8 11.3 (Node 20)
 * only, from MIN_TEXT characters of catalog text on, once, and with a flag
 * this V8 knows (an unknown one would be printed as an error at every run).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { delayOptimizer, MAX_TEXT, MIN_TEXT, shortRunFlag, V8_11_3_INTERRUPT_BUDGET } from '../../src/cli/tiering.js';
import { DEMO } from './helpers.js';

describe('tiering', () => {
  it('shortRunFlag: 8× the interrupt budget on V8 11.3, nothing on any other V8', () => {
    expect(V8_11_3_INTERRUPT_BUDGET).toBe(67_584);
    expect(shortRunFlag('11.3.244.8-node.33')).toBe('--interrupt-budget=540672');
    for (const v of ['11.8.172.17-node.15', '12.4.254.21-node.33', '13.6.233.17-node.33', '14.1.146.11', '10.2.154.26'])
      expect(shortRunFlag(v)).toBeNull();
  });

  it('delayOptimizer: sets the flag once, the first time the text is from MIN_TEXT to MAX_TEXT long', () => {
    expect([MIN_TEXT, MAX_TEXT]).toEqual([32_768, 262_144]);
    const set: string[] = [];
    const before = delayOptimizer('11.3.244.8-node.33', (f) => set.push(f))!;
    before(0);
    before(MIN_TEXT - 1);
    before(MAX_TEXT + 1);
    expect(set).toEqual([]);
    before(MAX_TEXT);
    before(MIN_TEXT);
    expect(set).toEqual(['--interrupt-budget=540672']);
    const low = delayOptimizer('11.3.244.8-node.33', (f) => set.push(f))!;
    low(MIN_TEXT);
    expect(set).toEqual(['--interrupt-budget=540672', '--interrupt-budget=540672']);
    expect(delayOptimizer('12.4.254.21-node.33', (f) => set.push(f))).toBeNull();
  });

  const flag = shortRunFlag(process.versions.v8);
  it.runIf(flag !== null)('the flag is one this V8 knows: setting it prints nothing', () => {
    const r = spawnSync(
      process.execPath,
      ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)}); console.log('set')`],
      { encoding: 'utf8' },
    );
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'set\n', '']);
  });

  it("main() hands the host's beforeParse to the catalog loader: called with the catalog's length", async () => {
    const calls: number[] = [];
    let stdout = '';
    const io = {
      stdout: { write: (s: string) => ((stdout += s), true), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      stdin: Readable.from([]),
      env: { NO_COLOR: '1' },
    };
    const code = await main(['search', '-c', DEMO, '--json', 'create', 'issue'], io, {
      beforeParse: (n) => calls.push(n),
    });
    expect(code).toBe(0);
    expect(calls).toEqual([readFileSync(DEMO, 'utf8').length]);
    expect(JSON.parse(stdout).matches.length).toBeGreaterThan(0);
  });
});
