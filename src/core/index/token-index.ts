/**
 * The token index: the distinct lower-cased name parts and text tokens of a
 * catalog, each with the posting lists of the tools that hold it, and a
 * trigram index to find the ones containing a keyword.
 */
import type { PreparedTool } from '../scorer.js';
import { TrigramIndex } from './trigrams.js';
import { fnv1a, grow, offsetsOf, Vocabulary } from './vocabulary.js';

// ---------------------------------------------------------------------------
// Token index.
//
// A *separator* is an ASCII code unit other than a–z and 0–9; a *token* is a
// maximal run of other code units in a lower-cased text. A keyword without
// separators that occurs in a text lies inside one token of it. So "the
// tools whose name (description) contains k" is exactly the union of the
// name (description) posting lists of the vocabulary tokens containing k,
// and the vocabulary (a few thousand short strings) is what gets searched.
// Keywords with separators use their longest separator-free piece to find
// candidates, which the full text check then decides.

export const IS_SEPARATOR = new Uint8Array(0x80).map((_, c) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ? 0 : 1,
);

export function isSeparator(c: number): boolean {
  return c < 0x80 && IS_SEPARATOR[c] === 1;
}

/**
 * Two vocabularies with posting lists: the distinct lower-cased name parts
 * (tools having that part), and the tokens of the lower-cased texts (tools
 * with that token in the name, and in the description).
 */
export class TokenIndex {
  readonly parts: string[];
  readonly partGrams: TrigramIndex;
  readonly partOff: Int32Array;
  readonly partPost: Int32Array;
  readonly tokens: string[];
  readonly tokenGrams: TrigramIndex;
  readonly nameOff: Int32Array;
  readonly namePost: Int32Array;
  readonly descOff: Int32Array;
  readonly descPost: Int32Array;
  private readonly stamp: Int32Array;
  private readonly scratch: Int32Array;
  private epoch = 0;

  constructor(entries: readonly PreparedTool[], partsOf: (t: PreparedTool) => readonly string[]) {
    const n = entries.length;
    const parts = new Vocabulary();
    const tokens = new Vocabulary();
    // Two passes over the texts, so that every posting list is allocated at
    // its exact size (growing large typed arrays costs more than scanning
    // twice). Pass 1 interns and counts; the part ids of each tool are kept
    // so that names are split once.
    let toolParts: Int32Array = new Int32Array(8 * n + 8);
    const toolPartsEnd = new Int32Array(n);
    let np = 0;
    let partCount: Int32Array = new Int32Array(1024);
    let nameCount: Int32Array = new Int32Array(1024);
    let descCount: Int32Array = new Int32Array(1024);
    for (let t = 0; t < n; t++) {
      for (const part of partsOf(entries[t]!)) {
        const id = parts.idFor(part, 0, part.length, fnv1a(part, 0, part.length), t, 0);
        if (id < 0) continue;
        if (np === toolParts.length) toolParts = grow(toolParts, 0);
        toolParts[np++] = id;
        if (id >= partCount.length) partCount = grow(partCount, 0);
        partCount[id]!++;
      }
      toolPartsEnd[t] = np;
      this.tokenize(entries[t]!, t, tokens, (id, inName) => {
        if (id >= nameCount.length) {
          nameCount = grow(nameCount, 0);
          descCount = grow(descCount, 0);
        }
        if (inName) nameCount[id]!++;
        else descCount[id]!++;
      });
    }
    this.parts = parts.strings;
    this.tokens = tokens.strings;
    const partPos = offsetsOf(partCount, this.parts.length);
    const namePos = offsetsOf(nameCount, this.tokens.length);
    const descPos = offsetsOf(descCount, this.tokens.length);
    this.partOff = partPos.slice();
    this.nameOff = namePos.slice();
    this.descOff = descPos.slice();
    this.partPost = new Int32Array(partPos[this.parts.length]!);
    this.namePost = new Int32Array(namePos[this.tokens.length]!);
    this.descPost = new Int32Array(descPos[this.tokens.length]!);
    // Pass 2: fill, in tool order.
    tokens.forgetTools();
    let from = 0;
    for (let t = 0; t < n; t++) {
      for (let i = from; i < toolPartsEnd[t]!; i++) this.partPost[partPos[toolParts[i]!]!++] = t;
      from = toolPartsEnd[t]!;
      this.tokenize(entries[t]!, t, tokens, (id, inName) => {
        if (inName) this.namePost[namePos[id]!++] = t;
        else this.descPost[descPos[id]!++] = t;
      });
    }
    this.partGrams = new TrigramIndex(this.parts);
    this.tokenGrams = new TrigramIndex(this.tokens);
    const most = Math.max(this.parts.length, this.tokens.length);
    this.stamp = new Int32Array(most);
    this.scratch = new Int32Array(most);
  }

  /** Calls `add` once per distinct token of the tool's name, and of its description. */
  private tokenize(e: PreparedTool, t: number, tokens: Vocabulary, add: (id: number, inName: boolean) => void): void {
    const s = e.text;
    const len = s.length;
    let i = 0;
    while (i < len) {
      let c = s.charCodeAt(i);
      if (c < 0x80 && IS_SEPARATOR[c] === 1) {
        i++;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5 | 0;
      do {
        h = Math.imul(h ^ c, 0x01000193);
        c = ++i < len ? s.charCodeAt(i) : 0x20;
      } while (!(c < 0x80 && IS_SEPARATOR[c] === 1));
      const inName = start < e.nameLength;
      const id = tokens.idFor(s, start, i, h, t, inName ? 0 : 1);
      if (id >= 0) add(id, inName);
    }
  }

  /**
   * The ids of the strings of `vocab` that contain `kw` (non-empty), in
   * `out` (the one equal to `kw`, if any, first); returns how many tool
   * entries their posting lists hold, or -1 as soon as that exceeds `cap`.
   */
  matching(which: 'parts' | 'tokens', kw: string, out: number[], cap: number): number {
    if (++this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    const epoch = this.epoch;
    const stamp = this.stamp;
    const vocab = which === 'parts' ? this.parts : this.tokens;
    const grams = which === 'parts' ? this.partGrams : this.tokenGrams;
    let total = 0;
    grams.forCandidates(kw, this.scratch, (id) => {
      if (stamp[id] === epoch) return;
      stamp[id] = epoch;
      if (total < 0) return;
      const str = vocab[id]!;
      if (str === kw) out.unshift(id);
      else if (str.includes(kw)) out.push(id);
      else return;
      total +=
        which === 'parts'
          ? this.partOff[id + 1]! - this.partOff[id]!
          : this.nameOff[id + 1]! - this.nameOff[id]! + this.descOff[id + 1]! - this.descOff[id]!;
      if (total > cap) total = -1;
    });
    return total;
  }
}
