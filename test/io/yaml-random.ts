/**
 * Random YAML documents for the reader's tests (yaml-differential.test.ts): trees of
 * scalars (words, core-schema look-alikes, any short text; every scalar style; core tags), sequences and
 * mappings in block or flow style, anchors and aliases, comments; and one character of a document changed.
 */
import fc from 'fast-check';

// ---------------------------------------------------------------- random documents

export const WORDS = ['a', 'b', 'name', 'x y', 'tool_1', 'é', '日本', 'emoji 😀', 'k-v', 'a.b', 'path/to', 'C#'];
/** Plain scalars the core schema reads as something else, and near misses it reads as text. */
export const SPECIAL = [
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'FALSE',
  'yes',
  'no',
  'on',
  'off',
  '0',
  '-0',
  '+0',
  '012',
  '-12',
  '+12',
  '0o17',
  '0o8',
  '0x1F',
  '0xg',
  '0X1F',
  '1_000',
  '1.5',
  '-1.5',
  '1.',
  '.5',
  '+.5',
  '1e3',
  '1E-3',
  '1.5e+3',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  '.NAN',
  'nan',
  'inf',
  '12345678901234567890',
  '0.1e',
  '1:2',
  'a#b',
  '2001-12-14',
  '<<',
  '=',
];
export const TAGS = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!', '!<tag:yaml.org,2002:str>'];

export type Tree =
  | { t: 'scalar'; text: string; style: number; tag: string | null }
  | { t: 'seq'; flow: boolean; items: Tree[] }
  | { t: 'map'; flow: boolean; entries: Array<[string, Tree]> }
  | { t: 'alias' };

const scalar: fc.Arbitrary<Tree> = fc.record({
  t: fc.constant('scalar' as const),
  text: fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...SPECIAL), fc.string({ maxLength: 6 })),
  style: fc.integer({ min: 0, max: 6 }),
  tag: fc.option(fc.constantFrom(...TAGS), { freq: 5, nil: null }),
});

export const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((rec) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.record({ t: fc.constant('seq' as const), flow: fc.boolean(), items: fc.array(rec('node'), { maxLength: 3 }) }),
    fc.record({
      t: fc.constant('map' as const),
      flow: fc.boolean(),
      entries: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...SPECIAL)), rec('node')), {
        maxLength: 3,
      }),
    }),
    fc.constant({ t: 'alias' as const }),
  ),
})).node;

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0xd800 && c <= 0xdfff) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Writes `t` as YAML text; `indent` is the block indentation, `flow` whether inside a flow collection. */
export class Writer {
  anchors = 0;
  constructor(private readonly rand: () => number) {}

  props(): string {
    if (this.rand() < 0.15) return `&a${this.anchors++} `;
    return '';
  }

  alias(): string {
    return this.anchors === 0 ? 'null' : `*a${Math.floor(this.rand() * this.anchors)}`;
  }

  scalar(s: Extract<Tree, { t: 'scalar' }>, indent: number, flow: boolean): string {
    const tag = s.tag === null ? '' : `${s.tag} `;
    const text = s.text;
    const plainOk =
      /^[A-Za-z0-9~.+\-_é日本😀<=][^\n]*$/u.test(text) &&
      !/[:#]\s|\s$|\s#/.test(text) &&
      !(flow && /[,[\]{}]/.test(text));
    switch (flow && s.style >= 3 ? s.style % 3 : s.style) {
      case 0:
      case 4:
        if (plainOk) return tag + text;
        return tag + doubleQuoted(text);
      case 1:
        if (/[\n\r]/.test(text)) return tag + doubleQuoted(text);
        return `${tag}'${text.replace(/'/g, "''")}'`;
      case 2:
        return tag + doubleQuoted(text);
      default: {
        if (/[^\t\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]|^\s|\s$/u.test(text) || text === '')
          return tag + doubleQuoted(text);
        const head = ['|', '|-', '|+', '>', '>-', '>+'][s.style % 6]!;
        const pad = ' '.repeat(indent + 2);
        return `${tag}${head}\n${text
          .split('\n')
          .map((l) => pad + l)
          .join('\n')}`;
      }
    }
  }

  /** A value after `key: ` or `- ` in block context, or inside a flow collection. */
  value(t: Tree, indent: number, flow: boolean): string {
    if (t.t === 'alias') return this.alias();
    const p = this.props();
    if (t.t === 'scalar') {
      const s = this.scalar(t, indent, flow);
      return s.includes('\n') && p !== '' ? s : p + s;
    }
    const empty = t.t === 'seq' ? t.items.length === 0 : t.entries.length === 0;
    if (flow || t.flow || empty) return p + this.flow(t);
    const body = this.block(t, indent + 2);
    return `${p.trimEnd()}\n${body}`;
  }

  flow(t: Extract<Tree, { t: 'seq' | 'map' }>): string {
    if (t.t === 'seq') return `[${t.items.map((i) => this.value(i, 0, true)).join(', ')}]`;
    return `{${t.entries.map(([k, v]) => `${this.key(k, true)}: ${this.value(v, 0, true)}`).join(', ')}}`;
  }

  key(k: string, flow: boolean): string {
    return this.scalar({ t: 'scalar', text: k, style: Math.floor(this.rand() * 3), tag: null }, 0, flow);
  }

  block(t: Extract<Tree, { t: 'seq' | 'map' }>, indent: number): string {
    const pad = ' '.repeat(indent);
    const comment = () => (this.rand() < 0.1 ? '  # note' : '');
    if (t.t === 'seq') return t.items.map((i) => `${pad}- ${this.value(i, indent, false)}${comment()}`).join('\n');
    return t.entries
      .map(([k, v]) => `${pad}${this.key(k, false)}: ${this.value(v, indent, false)}${comment()}`)
      .join('\n');
  }

  document(t: Tree): string {
    if (t.t === 'seq' || t.t === 'map') {
      const empty = t.t === 'seq' ? t.items.length === 0 : t.entries.length === 0;
      return `${t.flow || empty ? this.flow(t) : this.block(t, 0)}\n`;
    }
    return `${this.value(t, 0, false)}\n`;
  }
}

/** A small seeded generator in [0, 1) for the writer's choices (fast-check draws the seed, so runs replay). */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    return ((s >>> 8) & 0xffff) / 0x10000;
  };
}

/** Characters that change how YAML reads: one of them inserted or deleted makes a document's neighbours. */
const EDITS = [
  ':',
  '-',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '#',
  '&',
  '*',
  '!',
  '|',
  '>',
  '?',
  ' ',
  '\n',
  '\t',
  ',',
  '%',
  '@',
];

/** One character changed: `ch` inserted at `where` (modulo the length), or the character there deleted. */
export interface Edit {
  readonly where: number;
  readonly ch: string;
  readonly insert: boolean;
}

export const edit: fc.Arbitrary<Edit> = fc.record({
  where: fc.nat(),
  ch: fc.constantFrom(...EDITS),
  insert: fc.boolean(),
});

export function applyEdit(text: string, e: Edit): string {
  const at = e.where % text.length;
  return text.slice(0, at) + (e.insert ? e.ch + text.slice(at) : text.slice(at + 1));
}
