/**
 * Frequent short substrings (one or two UTF-16 code units), each with the
 * bitsets of the tools that hold it in a lower-cased name part, in the
 * lower-cased name, and in the lower-cased description.
 *
 * Why: a keyword of one or two characters (`a`, `io`, `_`, `e_`) lies inside
 * thousands of vocabulary tokens, so finding its tools through the token
 * index visits most of the catalog many times over. Here its sets are read
 * directly. Only substrings frequent enough to be expensive that way get
 * bitsets (a bitset costs n/8 bytes whatever it holds); a rare one is cheap
 * through the token index. Code units, not code points, match what
 * `String.prototype.includes` (the rules' substring test) does.
 */
import type { PreparedTool } from '../scorer.js';
import { wordsFor } from './bitsets.js';

const LF = 10;

export interface ShortSets {
  /** Tools with a lower-cased name part containing the substring. */
  readonly part: Uint32Array;
  /** Tools whose lower-cased name contains it (a superset of `part`). */
  readonly name: Uint32Array;
  /** Tools whose lower-cased description contains it. */
  readonly desc: Uint32Array;
}

export class ShortIndex {
  /** Slot + 1 by ASCII code unit, and by pair of ASCII code units (0: none). */
  private readonly ascii = new Int32Array(0x80);
  private readonly asciiPair = new Int32Array(0x4000);
  /** Slot + 1 by other code units, and by other pairs (c1 * 65536 + c2). */
  private readonly wide = new Map<number, number>();
  private readonly widePair = new Map<number, number>();
  private readonly sets: ShortSets[] = [];
  /** Tools (ids ascending) with a lower-cased part equal to a string of one or two code units. */
  private readonly exact = new Map<string, Int32Array>();

  /** `tools` in id order; a substring gets bitsets when it occurs at least `minCount` times. */
  constructor(tools: readonly PreparedTool[], minCount: number) {
    const n = tools.length;
    const count1 = new Int32Array(0x10000);
    const count2 = new Int32Array(0x4000);
    const countWide = new Map<number, number>();
    for (const t of tools) {
      const s = t.text;
      let prev = LF;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c === LF) {
          prev = LF;
          continue;
        }
        count1[c]!++;
        if (prev !== LF) {
          if ((prev | c) < 0x80) count2[(prev << 7) | c]!++;
          else countWide.set(prev * 0x10000 + c, (countWide.get(prev * 0x10000 + c) ?? 0) + 1);
        }
        prev = c;
      }
    }
    const w = wordsFor(n);
    const newSlot = (): number => {
      this.sets.push({ part: new Uint32Array(w), name: new Uint32Array(w), desc: new Uint32Array(w) });
      return this.sets.length;
    };
    for (let c = 0; c < 0x10000; c++) {
      if (count1[c]! < minCount) continue;
      if (c < 0x80) this.ascii[c] = newSlot();
      else this.wide.set(c, newSlot());
    }
    for (let k = 0; k < 0x4000; k++) if (count2[k]! >= minCount) this.asciiPair[k] = newSlot();
    for (const [k, c] of countWide) if (c >= minCount) this.widePair.set(k, newSlot());
    const exact = new Map<string, number[]>();
    for (let id = 0; id < n; id++) {
      const t = tools[id]!;
      const word = id >>> 5;
      const bit = 1 << (id & 31);
      this.mark(t.text, 0, t.nameLength, word, bit, 'name');
      this.mark(t.text, t.nameLength + 1, t.text.length, word, bit, 'desc');
      let last = '';
      for (const p of t.partsLower) {
        this.mark(p, 0, p.length, word, bit, 'part');
        if (p.length <= 2 && p !== last) {
          const list = exact.get(p);
          if (list === undefined) exact.set(p, [id]);
          else if (list[list.length - 1] !== id) list.push(id);
          last = p;
        }
      }
    }
    for (const [p, list] of exact) this.exact.set(p, Int32Array.from(list));
    // Where the name holds nothing the parts do not (most substrings), one array serves both.
    for (let i = 0; i < this.sets.length; i++) {
      const { part, name, desc } = this.sets[i]!;
      if (part.every((x, j) => x === name[j])) this.sets[i] = { part, name: part, desc };
    }
  }

  private slotOf(s: string, i: number, pairEnd: boolean): number {
    const c = s.charCodeAt(i);
    if (!pairEnd) return c < 0x80 ? this.ascii[c]! : (this.wide.get(c) ?? 0);
    const d = s.charCodeAt(i + 1);
    return (c | d) < 0x80 ? this.asciiPair[(c << 7) | d]! : (this.widePair.get(c * 0x10000 + d) ?? 0);
  }

  private mark(s: string, from: number, to: number, word: number, bit: number, which: keyof ShortSets): void {
    for (let i = from; i < to; i++) {
      const a = this.slotOf(s, i, false);
      if (a > 0) this.sets[a - 1]![which][word]! |= bit;
      if (i + 1 < to) {
        const b = this.slotOf(s, i, true);
        if (b > 0) this.sets[b - 1]![which][word]! |= bit;
      }
    }
  }

  /** The sets of `kw` (one or two code units, no line feed) when it is frequent enough to have them. */
  setsOf(kw: string): ShortSets | null {
    if (kw.length === 0 || kw.length > 2 || kw.includes('\n')) return null;
    const slot = this.slotOf(kw, 0, kw.length === 2);
    return slot > 0 ? this.sets[slot - 1]! : null;
  }

  /** Tools (ids ascending) with a lower-cased name part equal to `kw` (one or two code units). */
  exactOf(kw: string): Int32Array | null {
    return this.exact.get(kw) ?? null;
  }

  /** Number of substrings with bitsets. */
  get size(): number {
    return this.sets.length;
  }
}
