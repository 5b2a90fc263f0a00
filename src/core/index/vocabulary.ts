/**
 * Interned strings (a vocabulary) with open addressing, and the typed-array
 * helpers the index builders share.
 */

/**
 * Strings interned to ids, with the tool last seen for each in two roles (to
 * list a tool once per string and role). Looked up by a slice of a text and
 * its hash, so that tokenizing allocates only the strings that are new.
 */
export class Vocabulary {
  readonly strings: string[] = [];
  private hashes: Int32Array = new Int32Array(1024);
  /** Open addressing: id + 1, 0 for an empty slot. */
  private table: Int32Array = new Int32Array(2048);
  private last: Int32Array = new Int32Array(2048).fill(-1);

  /**
   * The id of `s.slice(start, end)` (whose FNV-1a hash is `hash`); -1 when already recorded for `tool` in `role` (0 or
   * 1).
   */
  idFor(s: string, start: number, end: number, hash: number, tool: number, role: number): number {
    const strings = this.strings;
    let mask = this.table.length - 1;
    let slot = hash & mask;
    let id = -1;
    for (;;) {
      const e = this.table[slot]!;
      if (e === 0) break;
      if (this.hashes[e - 1] === hash && sameText(strings[e - 1]!, s, start, end)) {
        id = e - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (id < 0) {
      id = strings.length;
      strings.push(start === 0 && end === s.length ? s : s.slice(start, end));
      if (id === this.hashes.length) this.hashes = grow(this.hashes, 0);
      this.hashes[id] = hash;
      if (2 * id + 1 >= this.last.length) this.last = grow(this.last, -1);
      this.table[slot] = id + 1;
      if (2 * strings.length > this.table.length) {
        // Rehash into a table twice the size.
        this.table = new Int32Array(this.table.length * 2);
        mask = this.table.length - 1;
        for (let k = 0; k < strings.length; k++) {
          let j = this.hashes[k]! & mask;
          while (this.table[j] !== 0) j = (j + 1) & mask;
          this.table[j] = k + 1;
        }
      }
    }
    const at = 2 * id + role;
    if (this.last[at] === tool) return -1;
    this.last[at] = tool;
    return id;
  }

  /** Forgets which tools were recorded (for a second pass over the same tools). */
  forgetTools(): void {
    this.last.fill(-1);
  }
}

function sameText(a: string, s: string, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== s.charCodeAt(start + i)) return false;
  return true;
}

/** 32-bit FNV-1a over the code units of s[start..end). */
export function fnv1a(s: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** A copy of `a` twice as long, the new half filled with `fill`. */
export function grow(a: Int32Array, fill: number): Int32Array {
  const b = new Int32Array(a.length * 2).fill(fill);
  b.set(a);
  return b;
}

/** Start offsets of consecutive lists of the given lengths, and the total at [count]. */
export function offsetsOf(lengths: Int32Array, count: number): Int32Array {
  const off = new Int32Array(count + 1);
  for (let k = 0; k < count; k++) off[k + 1] = off[k]! + lengths[k]!;
  return off;
}
