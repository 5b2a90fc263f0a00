/**
 * How many distinct words of a vocabulary occur inside the words of a text, in time linear in the text and the
 * vocabulary (an Aho–Corasick automaton over code points). Looking every substring of every word up in a set was
 * cubic in a word's length (each substring up to the longest vocabulary word, hashed anew): a catalog with one
 * description of a 3,000-character word took lint 100 s (issue 27, found by the fuzzer).
 */
import { textWords } from '../eval/words.js';

export class VocabularyMatcher {
  /** `next[s]`: the state after state `s` reads a code point. State 0 is the root. */
  private readonly next: Array<Map<string, number>> = [new Map()];
  /** The longest proper suffix of a state that is a state. */
  private readonly fail: number[] = [0];
  /** The longest proper suffix of a state that is a vocabulary word (a terminal state), or 0. */
  private readonly dict: number[] = [0];
  private readonly terminal: boolean[] = [false];
  /** The text a state was last counted for: a word found twice counts once. */
  private stamp: Int32Array = new Int32Array(0);
  private texts = 0;

  constructor(words: Iterable<string>) {
    for (const w of words) {
      let s = 0;
      for (const ch of w) {
        let t = this.next[s]!.get(ch);
        if (t === undefined) {
          t = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.dict.push(0);
          this.terminal.push(false);
          this.next[s]!.set(ch, t);
        }
        s = t;
      }
      this.terminal[s] = true;
    }
    // Breadth first: a state's suffix links come from shorter states, already linked.
    const queue: number[] = [...this.next[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head]!;
      for (const [ch, t] of this.next[s]!) {
        let f = this.fail[s]!;
        while (f !== 0 && !this.next[f]!.has(ch)) f = this.fail[f]!;
        const g = this.next[f]!.get(ch);
        const link = g !== undefined && g !== t ? g : 0;
        this.fail[t] = link;
        this.dict[t] = this.terminal[link] ? link : this.dict[link]!;
        queue.push(t);
      }
    }
    this.stamp = new Int32Array(this.next.length);
  }

  /** The number of distinct vocabulary words inside the words of `text` (a word is never matched across two). */
  hits(text: string): number {
    const mark = ++this.texts;
    let count = 0;
    for (const token of new Set(textWords(text))) {
      let s = 0;
      for (const ch of token) {
        while (s !== 0 && !this.next[s]!.has(ch)) s = this.fail[s]!;
        s = this.next[s]!.get(ch) ?? 0;
        // Every word ending here: the state itself when it is one, then its dictionary suffixes. A state counted
        // for this text had its whole chain counted with it, so the walk stops there.
        let u = this.terminal[s] ? s : this.dict[s]!;
        while (u !== 0 && this.stamp[u] !== mark) {
          this.stamp[u] = mark;
          count++;
          u = this.dict[u]!;
        }
      }
    }
    return count;
  }
}
