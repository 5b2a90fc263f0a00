/**
 * src/cli/tiering.ts: Turbofan put off while a 32–256 KiB catalog is parsed,
 * on the V8s of Node 20 and 22 only, set back when the parse is over, and
 * with flags these V8s know (an unknown one would be printed as an error at
 * every run).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { delayOptimizer, FACTOR, flagGiven, MAX_TEXT, MIN_TEXT, shortRunFlags } from '../../src/cli/tiering.js';
import { DEMO } from './helpers.js';

const NODE_20 = '11.3.244.8-node.33';
const NODE_22 = '12.4.254.21-node.33';

describe('tiering', () => {
  it('shortRunFlags: 8× the default on V8 11.3 and 12.4, nothing on any other V8', () => {
    expect(FACTOR).toBe(8);
    expect(shortRunFlags(NODE_20)).toEqual({
      flag: '--interrupt-budget',
      off: '--interrupt-budget=540672',
      back: '--interrupt-budget=67584',
    });
    expect(shortRunFlags(NODE_22)).toEqual({
      flag: '--invocation-count-for-turbofan',
      off: '--invocation-count-for-turbofan=24000',
      back: '--invocation-count-for-turbofan=3000',
    });
    for (const v of ['11.8.172.17-node.15', '12.9.202.28-node.14', '13.6.233.17-node.33', '14.1.146.11', '10.2.154.26'])
      expect(shortRunFlags(v)).toBeNull();
  });

  it('delayOptimizer: from MIN_TEXT to MAX_TEXT characters, sets the flag and returns what sets it back', () => {
    expect([MIN_TEXT, MAX_TEXT]).toEqual([32_768, 262_144]);
    const set: string[] = [];
    const before = delayOptimizer(NODE_20, (f) => set.push(f))!;
    expect([before(0), before(MIN_TEXT - 1), before(MAX_TEXT + 1)]).toEqual([undefined, undefined, undefined]);
    expect(set).toEqual([]);
    for (const length of [MIN_TEXT, MAX_TEXT]) {
      const back = before(length);
      expect(set).toEqual(['--interrupt-budget=540672']);
      back!();
      expect(set).toEqual(['--interrupt-budget=540672', '--interrupt-budget=67584']);
      set.length = 0;
    }
    expect(delayOptimizer('13.6.233.17-node.33', (f) => set.push(f))).toBeNull();
  });

  it("delayOptimizer: nothing when the user set the flag (Node's arguments, NODE_OPTIONS)", () => {
    const set: string[] = [];
    const none = (given: string[]) => delayOptimizer(NODE_20, (f) => set.push(f), given);
    expect(none(['--interrupt-budget=1000'])).toBeNull();
    expect(none(['--max-old-space-size=100 --interrupt_budget=1000'])).toBeNull();
    expect(none(['--stack-size=2000', ''])).not.toBeNull();
    expect(delayOptimizer(NODE_22, (f) => set.push(f), ['--invocation-count-for-turbofan=10'])).toBeNull();
    expect(flagGiven('--interrupt-budget', ['--interrupt-budget-for-feedback-allocation=10'])).toBe(true);
    expect(flagGiven('--interrupt-budget', ['--no-opt'])).toBe(false);
    expect(set).toEqual([]);
  });

  const flags = shortRunFlags(process.versions.v8);
  it.runIf(flags !== null)('the flags are ones this V8 knows: setting them prints nothing', () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const v8 = require('node:v8'); v8.setFlagsFromString(${JSON.stringify(flags?.off)}); ` +
          `v8.setFlagsFromString(${JSON.stringify(flags?.back)}); console.log('set')`,
      ],
      { encoding: 'utf8' },
    );
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'set\n', '']);
  });

  it("main() hands the host's beforeParse to the catalog loader, and calls what it returns after", async () => {
    const calls: string[] = [];
    let stdout = '';
    const io = {
      stdout: { write: (s: string) => ((stdout += s), true), isTTY: false },
      stderr: { write: () => true, isTTY: false },
      stdin: Readable.from([]),
      env: { NO_COLOR: '1' },
    };
    const code = await main(['search', '-c', DEMO, '--json', 'create', 'issue'], io, {
      beforeParse: (n) => {
        calls.push(`before ${n}`);
        return () => calls.push('after');
      },
    });
    expect(code).toBe(0);
    expect(calls).toEqual([`before ${readFileSync(DEMO, 'utf8').length}`, 'after']);
    expect(JSON.parse(stdout).matches.length).toBeGreaterThan(0);
  });
});
