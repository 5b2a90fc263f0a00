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
  /** 1 for an ASCII code unit (pair) that occurs somewhere but too rarely for a slot. */
  private readonly asciiSeen = new Uint8Array(0x80);
  private readonly asciiPairSeen = new Uint8Array(0x4000);
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
    let slots = 0;
    for (let c = 0; c < 0x10000; c++) {
      if (count1[c]! < minCount) continue;
      if (c < 0x80) this.ascii[c] = ++slots;
      else this.wide.set(c, ++slots);
    }
    for (let k = 0; k < 0x4000; k++) {
      if (count2[k]! >= minCount) this.asciiPair[k] = ++slots;
      else if (count2[k]! > 0) this.asciiPairSeen[k] = 1;
    }
    for (let c = 0; c < 0x80; c++) if (count1[c]! > 0 && count1[c]! < minCount) this.asciiSeen[c] = 1;
    for (const [k, c] of countWide) if (c >= minCount) this.widePair.set(k, ++slots);
    const words = wordsFor(n);
    const part = new Uint32Array(slots * words);
    const desc = new Uint32Array(slots * words);
    /** Per slot, the tools whose name holds the substring where no part does (`_`, across a part boundary). */
    const nameOnly = new Map<number, Uint32Array>();
    const exact = new Map<string, number[]>();
    for (let id = 0; id < n; id++) {
      const t = tools[id]!;
      const word = id >>> 5;
      const bit = 1 << (id & 31);
      const text = t.text;
      this.mark(desc, words, word, text, t.nameLength + 1, text.length, bit);
      // Each lower-cased part is the slice of the lower-cased name at its place (lower-casing maps code point
      // to code point); between parts lie only `_`, which no part contains, so the first match from the end
      // of the previous part is the part's own place.
      let from = 0;
      for (const p of t.partsLower) {
        const at = text.indexOf(p, from);
        if (at < 0 || at + p.length > t.nameLength)
          throw new Error(`internal error: name part ${JSON.stringify(p)} not in the name`);
        this.markNameOnly(nameOnly, words, word, text, from, at, t.nameLength, bit);
        this.mark(part, words, word, text, at, at + p.length, bit);
        from = at + p.length;
        if (p.length <= 2) {
          const list = exact.get(p);
          if (list === undefined) exact.set(p, [id]);
          else if (list[list.length - 1] !== id) list.push(id);
        }
      }
      this.markNameOnly(nameOnly, words, word, text, from, t.nameLength, t.nameLength, bit);
    }
    for (const [p, list] of exact) this.exact.set(p, Int32Array.from(list));
    for (let s = 0; s < slots; s++) {
      const partSet = part.subarray(s * words, (s + 1) * words);
      const extra = nameOnly.get(s);
      let nameSet: Uint32Array = partSet;
      if (extra !== undefined) {
        nameSet = extra;
        for (let w = 0; w < words; w++) nameSet[w]! |= partSet[w]!;
      }
      this.sets.push({ part: partSet, name: nameSet, desc: desc.subarray(s * words, (s + 1) * words) });
    }
  }

  /**
   * Marks in `nameOnly` the substrings of the name that lie in no part: the
   * units of the gap name[gapFrom..gapTo) between two parts (only `_`), and
   * the pairs that touch the gap or straddle the boundary at gapFrom.
   */
  private markNameOnly(
    nameOnly: Map<number, Uint32Array>,
    words: number,
    word: number,
    s: string,
    gapFrom: number,
    gapTo: number,
    nameLength: number,
    bit: number,
  ): void {
    const add = (slot: number): void => {
      if (slot === 0) return;
      let b = nameOnly.get(slot - 1);
      if (b === undefined) nameOnly.set(slot - 1, (b = new Uint32Array(words)));
      b[word]! |= bit;
    };
    for (let i = gapFrom; i < gapTo; i++) add(this.slotOf(s, i, false));
    for (let i = gapFrom > 0 ? gapFrom - 1 : 0; i < gapTo && i + 1 < nameLength; i++) add(this.slotOf(s, i, true));
  }

  private slotOf(s: string, i: number, pair: boolean): number {
    const c = s.charCodeAt(i);
    if (!pair) return c < 0x80 ? this.ascii[c]! : (this.wide.get(c) ?? 0);
    const d = s.charCodeAt(i + 1);
    return (c | d) < 0x80 ? this.asciiPair[(c << 7) | d]! : (this.widePair.get(c * 0x10000 + d) ?? 0);
  }

  /** Sets `bit` of `word` in the bitsets (in `bits`) of every substring of s[from..to) that has a slot. */
  private mark(bits: Uint32Array, words: number, word: number, s: string, from: number, to: number, bit: number): void {
    const ascii = this.ascii;
    const asciiPair = this.asciiPair;
    let prev = -1;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      let a: number;
      let b = 0;
      if (c < 0x80) {
        a = ascii[c]!;
        if (prev >= 0) b = prev < 0x80 ? asciiPair[(prev << 7) | c]! : (this.widePair.get(prev * 0x10000 + c) ?? 0);
      } else {
        a = this.wide.get(c) ?? 0;
        if (prev >= 0) b = this.widePair.get(prev * 0x10000 + c) ?? 0;
      }
      if (a > 0) bits[(a - 1) * words + word]! |= bit;
      if (b > 0) bits[(b - 1) * words + word]! |= bit;
      prev = c;
    }
  }

  /** The sets of `kw` (one or two code units, no line feed) when it is frequent enough to have them. */
  setsOf(kw: string): ShortSets | null {
    if (kw.length === 0 || kw.length > 2 || kw.includes('\n')) return null;
    const slot = this.slotOf(kw, 0, kw.length === 2);
    return slot > 0 ? this.sets[slot - 1]! : null;
  }

  /**
   * A superset of the tools whose name or description contains `kw` (no line
   * feed, not empty): each of its pairs that has a slot must be in the tool's
   * name or description. Writes it to `into` and returns 'some'; returns
   * 'none' when a unit or pair of `kw` occurs nowhere (ASCII ones are
   * tracked), 'all' when nothing narrows it.
   */
  narrow(kw: string, into: Uint32Array): 'none' | 'all' | 'some' {
    let narrowed = false;
    // The pairs (their units are in them), or the one unit of a one-unit keyword.
    for (let i = 0; i < Math.max(1, kw.length - 1); i++) {
      for (const pair of [kw.length > 1]) {
        const c = kw.charCodeAt(i);
        const ascii = pair ? (c | kw.charCodeAt(i + 1)) < 0x80 : c < 0x80;
        const slot = this.slotOf(kw, i, pair);
        if (slot === 0) {
          if (ascii && (pair ? this.asciiPairSeen[(c << 7) | kw.charCodeAt(i + 1)] : this.asciiSeen[c]) === 0)
            return 'none';
          continue;
        }
        const { name, desc } = this.sets[slot - 1]!;
        if (!narrowed) for (let w = 0; w < into.length; w++) into[w] = name[w]! | desc[w]!;
        else for (let w = 0; w < into.length; w++) into[w]! &= name[w]! | desc[w]!;
        narrowed = true;
      }
    }
    return narrowed ? 'some' : 'all';
  }

  /** Tools (ids ascending) with a lower-cased part equal to `kw` (one or two code units). */
  exactOf(kw: string): Int32Array | null {
    return this.exact.get(kw) ?? null;
  }

  /** Number of substrings with bitsets. */
  get size(): number {
    return this.sets.length;
  }
}
