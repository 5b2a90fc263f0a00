/**
 * Issue 27, finding 4: no call in src/ passes an array it did not write out as arguments. `out.push(...items)`,
 * `Math.max(...values)` and the like put every item on the stack, which overflows past about 100,000 of them
 * (exit 70 on a message of 300,000 blocks, a search naming 200,000 tools, a directory of 130,000 files); src/core/
 * append.ts has `append`, `prepend`, `largest` and `smallest` instead. A spread is allowed only of an array literal
 * (`f(...[a, b])`) or of a constant (an UPPER_CASE name: a fixed option tuple).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { append, largest, prepend, smallest } from '../../src/core/append.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Bounded spreads, each with its reason. */
const ALLOWED = new Map([
  // At most 4,096 code units at a time (a tool name part being lower-cased).
  ['core/scorer.ts', ['String.fromCharCode(...units.slice(i, i + 4096))']],
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** `file:line: call` for every spread argument of a call or `new` that is not an array literal or a constant. */
function argumentSpreads(file: string, text: string): string[] {
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const allowed = ALLOWED.get(file) ?? [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isSpreadElement(n) &&
      (ts.isCallExpression(n.parent) || ts.isNewExpression(n.parent)) &&
      !ts.isArrayLiteralExpression(n.expression) &&
      !(ts.isIdentifier(n.expression) && /^[A-Z][A-Z0-9_]*$/.test(n.expression.text))
    ) {
      const call = n.parent.getText(sf).replace(/\s+/g, ' ');
      if (!allowed.includes(call)) {
        const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
        out.push(`${file}:${line + 1}: ${call.slice(0, 100)}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('argument spreads in src/', () => {
  it('none of an array the code did not write out (push(...input), Math.max(...values))', () => {
    const found = sources(SRC).flatMap((f) =>
      argumentSpreads(path.relative(SRC, f).split(path.sep).join('/'), readFileSync(f, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('the check finds them (it is not vacuous)', () => {
    expect(
      argumentSpreads(
        'x.ts',
        'out.push(...items); Math.max(1, ...v); new Set(...a); f(...[1, 2]); g(...OPTION); h(...(c ? [1] : []));',
      ),
    ).toEqual([
      'x.ts:1: out.push(...items)',
      'x.ts:1: Math.max(1, ...v)',
      'x.ts:1: new Set(...a)',
      'x.ts:1: h(...(c ? [1] : []))',
    ]);
    expect(argumentSpreads('core/scorer.ts', 'String.fromCharCode(...units.slice(i, i + 4096))')).toEqual([]);
  });

  it('append, prepend, largest and smallest are push, unshift, Math.max and Math.min, for any number of items', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i);
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    const out = [-2, -1];
    expect(append(out, many)).toBe(out);
    expect(out.length).toBe(500_002);
    expect(out.at(-1)).toBe(499_999);
    expect(prepend([7, 8], [1, 2])).toEqual([1, 2, 7, 8]);
    const p = [9];
    expect(prepend(p, many).length).toBe(500_001);
    expect(p[0]).toBe(0);
    expect(p.at(-1)).toBe(9);
    expect(largest(many)).toBe(499_999);
    expect(smallest(many)).toBe(0);
    expect(largest([])).toBe(Math.max());
    expect(smallest([])).toBe(Math.min());
    expect(largest([1, Number.NaN, 3])).toBeNaN();
    expect(smallest([-0, 0])).toBe(Math.min(-0, 0));
  });
});
